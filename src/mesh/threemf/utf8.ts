// Whether a part's bytes, chunk by chunk, are UTF-8: refused where a fatal streaming TextDecoder would throw
// (WHATWG Encoding), without decoding them. A character cut by a chunk's end waits for the next chunk, as the
// decoder keeps it; anything that can no longer become a character is refused at once, as the decoder does.

import { isUtf8 } from 'node:buffer';
import { keepShape } from '../keep-shapes.ts';

export class Utf8Check {
  /** The start of a character cut by the end of the last chunk (1 to 3 bytes), or empty. */
  private pending = new Uint8Array(0);

  /** The next chunk; false if the bytes so far are not UTF-8. */
  push(chunk: Uint8Array): boolean {
    let bytes = chunk;
    if (this.pending.length > 0) {
      bytes = new Uint8Array(this.pending.length + chunk.length);
      bytes.set(this.pending);
      bytes.set(chunk, this.pending.length);
    }
    const cut = cutCharacter(bytes);
    if (!isUtf8(bytes.subarray(0, cut)) || !isCharacterStart(bytes.subarray(cut))) return false;
    this.pending = bytes.slice(cut);
    return true;
  }

  /** The end of the text: false if a character was left unfinished. */
  end(): boolean {
    return this.pending.length === 0;
  }
}

/** Where a character cut by the end of bytes starts (bytes.length if none is). */
function cutCharacter(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k]!;
    if (b < 0x80) return n;
    if (b >= 0xc0) return k < (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2) ? n - k : n;
  }
  return n;
}

/** Whether the bytes (fewer than a whole character) can still become one: the decoder's bounds. */
function isCharacterStart(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return true;
  const lead = bytes[0]!;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) return bytes.length === 1;
  if (lead === 0xe0) low = 0xa0;
  else if (lead === 0xed) high = 0x9f;
  else if (lead === 0xf0) low = 0x90;
  else if (lead === 0xf4) high = 0x8f;
  else if (!(lead >= 0xe1 && lead <= 0xf3)) return false;
  for (let k = 1; k < bytes.length; k++) {
    const b = bytes[k]!;
    if (b < low || b > high) return false;
    low = 0x80;
    high = 0xbf;
  }
  return true;
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new Utf8Check());
