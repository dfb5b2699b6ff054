// Decides the format from the content, not the name alone: binary STL is recognised by its size
// (84 + 50 x count), because about one binary STL in seven starts its header with 'solid' too;
// ASCII STL and OBJ must be text. Images, archives, scripts renamed .stl/.obj are refused here.

import { MeshError } from './errors.ts';
import {
  HEADER_BYTES,
  MAX_TRAILING_BYTES,
  RECORD_BYTES,
  trailingMessage,
  truncatedMessage,
} from './stl-binary.ts';
import type { MeshExtension, MeshFormat } from './types.ts';

/** How many leading bytes detectFormat looks at (pass at least this many, or the whole file). */
export const DETECT_BYTES = 1024;

const SIGNATURES: Array<[string, number[]]> = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a ZIP archive; a 3MF file must be named .3mf', [0x50, 0x4b, 0x03, 0x04]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['a gzip archive', [0x1f, 0x8b]],
  ['a 7-Zip archive', [0x37, 0x7a, 0xbc, 0xaf]],
  ['a RAR archive', [0x52, 0x61, 0x72, 0x21]],
  ['a program', [0x7f, 0x45, 0x4c, 0x46]],
  ['a program', [0x4d, 0x5a]],
];

const TEXT_SIGNATURES: Array<[string, RegExp]> = [
  ['a PHP script', /^\s*<\?php/i],
  ['an HTML page', /^\s*<(!doctype|html|head|body|script)/i],
  ['an XML document', /^\s*<\?xml/i],
  ['a script', /^#!/],
];

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, k) => bytes[k] === b);
}

/** Text: no NUL and few other control bytes (UTF-8 names are fine). */
function looksLikeText(bytes: Uint8Array): boolean {
  let controls = 0;
  for (let k = 0; k < bytes.length; k++) {
    const c = bytes[k]!;
    if (c === 0) return false;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) controls++;
  }
  return controls * 100 <= bytes.length;
}

function head(bytes: Uint8Array): string {
  let s = '';
  const n = Math.min(bytes.length, 256);
  for (let k = 0; k < n; k++) s += String.fromCharCode(bytes[k]!);
  // A UTF-8 byte order mark is allowed before the text.
  return s.startsWith('\xef\xbb\xbf') ? s.slice(3) : s;
}

const OBJ_STATEMENT = /^\s*(#|v|vt|vn|vp|f|o|g|s|l|p|mtllib|usemtl)\s/m;

function notAModel(what: string | null): MeshError {
  return new MeshError(
    'not-a-model',
    what
      ? `This file is not an STL or OBJ model (it looks like ${what}).`
      : 'This file is not an STL or OBJ model.',
  );
}

export function detectFormat(
  firstBytes: Uint8Array,
  totalSize: number,
  extension: MeshExtension,
): MeshFormat {
  if (totalSize === 0) throw new MeshError('empty', 'The file is empty.');
  const bytes = firstBytes.subarray(0, Math.min(firstBytes.length, DETECT_BYTES, totalSize));
  for (const [what, signature] of SIGNATURES) if (startsWith(bytes, signature)) throw notAModel(what);
  // A binary STL's header is free text: only its size tells. Check it before judging the text.
  let declared = -1;
  if (extension === 'stl' && totalSize >= HEADER_BYTES && bytes.length >= HEADER_BYTES) {
    declared = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES).getUint32(80, true);
    const expected = HEADER_BYTES + RECORD_BYTES * declared;
    if (totalSize >= expected && totalSize - expected <= MAX_TRAILING_BYTES) return 'stl-binary';
  }
  const start = head(bytes);
  for (const [what, pattern] of TEXT_SIGNATURES) if (pattern.test(start)) throw notAModel(what);
  const text = looksLikeText(bytes);
  const solid = text && /^\s*solid(\s|$)/i.test(start);

  if (extension === 'obj') {
    if (!text) throw notAModel(null);
    if (solid && /\b(facet|endsolid)\b/i.test(start)) {
      throw new MeshError(
        'wrong-extension',
        'This file is named .obj but holds an STL model: rename it to .stl.',
      );
    }
    return 'obj';
  }
  if (declared >= 0 && !text) {
    const expected = HEADER_BYTES + RECORD_BYTES * declared;
    if (totalSize < expected) {
      const held = Math.floor((totalSize - HEADER_BYTES) / RECORD_BYTES);
      throw new MeshError('stl-truncated', truncatedMessage(declared, held));
    }
    throw new MeshError('stl-trailing-data', trailingMessage(declared, totalSize - expected));
  }
  if (text && solid) return 'stl-ascii';
  if (text && OBJ_STATEMENT.test(start)) {
    throw new MeshError(
      'wrong-extension',
      'This file is named .stl but holds an OBJ model: rename it to .obj.',
    );
  }
  if (!text && totalSize < HEADER_BYTES) {
    throw new MeshError(
      'stl-too-small',
      `This file is too small to be an STL model: ${totalSize} bytes, where a binary STL needs at least 84.`,
    );
  }
  throw notAModel(null);
}
