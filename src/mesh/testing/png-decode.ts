// A PNG reader for tests (8-bit RGB / RGBA, non-interlaced): checks every chunk's CRC and undoes the
// row filters, independently of the encoder.

import { inflateSync, crc32 as zlibCrc32 } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  colorType: number;
  /** RGBA, 4 bytes a pixel. */
  pixels: Uint8Array;
  chunks: string[];
}

export function decodePng(png: Uint8Array): DecodedPng {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, k) => png[k] === b)) throw new Error('not a PNG signature');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  const idat: Uint8Array[] = [];
  const chunks: string[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = view.getUint32(offset + 8 + length);
    if (zlibCrc32(png.subarray(offset + 4, offset + 8 + length)) !== crc)
      throw new Error(`bad CRC in ${type}`);
    chunks.push(type);
    if (type === 'IHDR') {
      const h = new DataView(data.buffer, data.byteOffset, data.byteLength);
      width = h.getUint32(0);
      height = h.getUint32(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('unsupported bit depth or interlace');
      colorType = data[9]!;
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (bpp === 0) throw new Error(`unsupported colour type ${colorType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let k = 0; k < stride; k++) {
      const x = raw[y * (stride + 1) + 1 + k]!;
      const a = k >= bpp ? rows[y * stride + k - bpp]! : 0;
      const b = y > 0 ? rows[(y - 1) * stride + k]! : 0;
      const c = k >= bpp && y > 0 ? rows[(y - 1) * stride + k - bpp]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >>> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`bad filter ${filter}`);
      rows[y * stride + k] = (x + predictor) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    pixels[4 * i] = rows[bpp * i]!;
    pixels[4 * i + 1] = rows[bpp * i + 1]!;
    pixels[4 * i + 2] = rows[bpp * i + 2]!;
    pixels[4 * i + 3] = bpp === 4 ? rows[bpp * i + 3]! : 255;
  }
  return { width, height, colorType, pixels, chunks };
}
