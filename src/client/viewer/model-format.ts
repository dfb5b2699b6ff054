// STL or OBJ: by the file name, and by the bytes when the name does not say.

export type ModelFormat = 'stl' | 'obj';

export function formatFromName(fileName: string): ModelFormat | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.stl')) return 'stl';
  if (lower.endsWith('.obj')) return 'obj';
  return null;
}

/** A binary STL is 84 + 50 x n bytes; an ASCII STL starts with `solid` and has `facet`s; else OBJ. */
export function sniffFormat(bytes: ArrayBuffer): ModelFormat {
  if (bytes.byteLength >= 84) {
    const count = new DataView(bytes).getUint32(80, true);
    if (84 + 50 * count === bytes.byteLength) return 'stl';
  }
  const head = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 1024)));
  if (/^\s*solid\b/i.test(head) && /\bfacet\b/i.test(head)) return 'stl';
  return 'obj';
}

export function detectFormat(fileName: string, bytes: ArrayBuffer): ModelFormat {
  return formatFromName(fileName) ?? sniffFormat(bytes);
}
