// Feeds arbitrary chunks of a text file to a token parser so that the parser only ever sees whole
// tokens: each range it gets ends just after a space, tab or newline. The partial token at the end
// of a chunk is carried (at most MAX_TOKEN bytes) and completed from the next chunk. Lines are not
// carried, so a 10 MB line costs no memory.

import { MeshError } from './errors.ts';
import { keepShape } from './keep-shapes.ts';

export interface RangeParser {
  /** Parses buf[start, end); buf[end - 1] is a space, tab or newline, so every token is whole. */
  parseRange(buf: Uint8Array, start: number, end: number): void;
  /** True while the parser is skipping to the end of a line: bytes there need not be whole tokens. */
  skippingLine(): boolean;
  /** Current line number, for messages. */
  currentLine(): number;
  /**
   * A token longer than MAX_TOKEN starts with this byte. The parser answers true if it skips the
   * rest of the line anyway (a comment), false if the token is an error.
   */
  skipsOverlongToken(firstByte: number): boolean;
  /** The end of the file. */
  end(): void;
}

/** Longest token (number, index, keyword) accepted; real ones are under 100 bytes. */
export const MAX_TOKEN = 4096;
/** Ranges are cut to about this size: short calls keep V8 from running one huge on-stack-replaced loop. */
const RANGE_BYTES = 64 * 1024;

const SPACE = 32;
const TAB = 9;
const LF = 10;

function isBreak(c: number): boolean {
  return c === SPACE || c === LF || c === TAB;
}

export class TextChunker {
  private readonly parser: RangeParser;
  private readonly joint = new Uint8Array(2 * MAX_TOKEN + 2);
  private carryLength = 0;

  constructor(parser: RangeParser) {
    this.parser = parser;
  }

  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let start = 0;
    if (this.carryLength > 0) {
      let w = 0;
      while (w < n && !isBreak(chunk[w]!)) w++;
      if (w === n) {
        this.appendCarry(chunk, 0, n);
        return;
      }
      // The token is whole now: carry + chunk[0, w), then its break.
      if (!this.appendCarry(chunk, 0, w)) {
        start = w;
      } else {
        this.joint[this.carryLength] = chunk[w]!;
        const length = this.carryLength + 1;
        this.carryLength = 0;
        this.parser.parseRange(this.joint, 0, length);
        start = w + 1;
      }
    }
    let last = n - 1;
    while (last >= start && !isBreak(chunk[last]!)) last--;
    if (last >= start) this.parseInPieces(chunk, start, last + 1);
    const tail = last >= start ? last + 1 : start;
    // A skipped line's tail has no newline in it: nothing there can matter.
    if (tail < n && !this.parser.skippingLine()) {
      this.appendCarry(chunk, tail, n);
    }
  }

  finish(): void {
    if (this.carryLength > 0) {
      this.joint[this.carryLength] = LF;
      const length = this.carryLength + 1;
      this.carryLength = 0;
      this.parser.parseRange(this.joint, 0, length);
    }
    this.parser.end();
  }

  private parseInPieces(buf: Uint8Array, start: number, end: number): void {
    let s = start;
    while (end - s > RANGE_BYTES) {
      let cut = s + RANGE_BYTES;
      while (cut > s && !isBreak(buf[cut - 1]!)) cut--;
      if (cut === s) break;
      this.parser.parseRange(buf, s, cut);
      s = cut;
    }
    this.parser.parseRange(buf, s, end);
  }

  /** Adds to the partial token; false when it grew too long and the parser skips its line. */
  private appendCarry(buf: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    if (this.carryLength + length > MAX_TOKEN) {
      const first = this.carryLength > 0 ? this.joint[0]! : buf[start]!;
      if (!this.parser.skipsOverlongToken(first)) throw tokenTooLong(this.parser.currentLine());
      // The parser now skips its line: the rest of this token goes to it as skipped bytes.
      this.carryLength = 0;
      return false;
    }
    this.joint.set(buf.subarray(start, end), this.carryLength);
    this.carryLength += length;
    return true;
  }
}

export function tokenTooLong(line: number): MeshError {
  return new MeshError(
    'token-too-long',
    `Line ${line} has a word or number longer than ${MAX_TOKEN} characters.`,
  );
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(
  new TextChunker({
    parseRange() {},
    skippingLine: () => false,
    currentLine: () => 1,
    skipsOverlongToken: () => false,
    end() {},
  }),
);
