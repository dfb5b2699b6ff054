// A small PNG encoder (8-bit RGBA, or RGB when every pixel is opaque). Each row gets the filter
// with the smallest sum of absolute differences, the usual heuristic, then zlib at level 9.
// And its reader, for the previews it wrote (recoloured per line colour, preview.ts).

import { promisify } from 'node:util';
import { deflate, deflateSync, inflateSync } from 'node:zlib';

const deflateAsync = promisify(deflate);

const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let k = 0; k < bytes.length; k++) c = CRC_TABLE[(c ^ bytes[k]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A filtered byte's weight in the heuristic: its distance from 0 as a signed byte. */
const cost = (v: number) => (v < 128 ? v : 256 - v);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Encodes width x height RGBA pixels (non-premultiplied, row by row) as PNG bytes. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const { filtered, opaque } = filterRows(rgba, width, height);
  return assemble(width, height, opaque, deflateSync(filtered, { level: 9 }));
}

/**
 * encodePng with zlib's work on libuv's thread pool, at `level` (1 fastest to 9 smallest): for an image
 * made while a request waits, so that the event loop keeps answering others.
 */
export async function encodePngAsync(
  rgba: Uint8Array,
  width: number,
  height: number,
  level = 6,
): Promise<Uint8Array> {
  const { filtered, opaque } = filterRows(rgba, width, height);
  return assemble(width, height, opaque, await deflateAsync(filtered, { level }));
}

/** The rows, each behind its filter type byte: what the IDAT chunk compresses. */
function filterRows(rgba: Uint8Array, width: number, height: number) {
  if (rgba.length !== width * height * 4) throw new Error('encodePng: pixel data does not match the size');
  let opaque = true;
  for (let k = 3; k < rgba.length; k += 4) {
    if (rgba[k] !== 255) {
      opaque = false;
      break;
    }
  }
  const bpp = opaque ? 3 : 4;
  const stride = width * bpp;
  const raw = new Uint8Array(stride);
  const previous = new Uint8Array(stride);
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4;
      const d = x * bpp;
      raw[d] = rgba[s]!;
      raw[d + 1] = rgba[s + 1]!;
      raw[d + 2] = rgba[s + 2]!;
      if (bpp === 4) raw[d + 3] = rgba[s + 3]!;
    }
    // The five filters' scores in one pass (previous is all zeros on the first row, as PNG says).
    let none = 0;
    let sub = 0;
    let up = 0;
    let average = 0;
    let paethScore = 0;
    for (let k = 0; k < stride; k++) {
      const x = raw[k]!;
      const a = k >= bpp ? raw[k - bpp]! : 0;
      const b = previous[k]!;
      const c = k >= bpp ? previous[k - bpp]! : 0;
      none += cost(x);
      sub += cost((x - a) & 0xff);
      up += cost((x - b) & 0xff);
      average += cost((x - ((a + b) >>> 1)) & 0xff);
      paethScore += cost((x - paeth(a, b, c)) & 0xff);
    }
    // The lowest score, the first of equals.
    const scores = [none, sub, up, average, paethScore];
    let type = 0;
    for (let t = 1; t < 5; t++) if (scores[t]! < scores[type]!) type = t;
    const row = y * (stride + 1);
    filtered[row] = type;
    for (let k = 0; k < stride; k++) {
      const a = k >= bpp ? raw[k - bpp]! : 0;
      const b = previous[k]!;
      const predictor =
        type === 0
          ? 0
          : type === 1
            ? a
            : type === 2
              ? b
              : type === 3
                ? (a + b) >>> 1
                : paeth(a, b, k >= bpp ? previous[k - bpp]! : 0);
      filtered[row + 1 + k] = (raw[k]! - predictor) & 0xff;
    }
    previous.set(raw);
  }
  return { filtered, opaque };
}

function assemble(width: number, height: number, opaque: boolean, idat: Uint8Array): Uint8Array {
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = opaque ? 2 : 6; // RGB or RGBA
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Pixels read back from a PNG: RGBA, 4 bytes a pixel, row by row. */
export type PngImage = { width: number; height: number; rgba: Uint8Array };

/** The largest side read back: a preview is 512 x 512; anything far bigger is not one of ours. */
const MAX_DECODED_SIDE = 4096;

/**
 * Reads a PNG of the kinds encodePng writes (8-bit RGB or RGBA, not interlaced), checking each chunk's
 * CRC; anything else throws.
 */
export function decodePng(png: Uint8Array): PngImage {
  if (png.length < 8 || !SIGNATURE.every((b, k) => png[k] === b)) throw new Error('decodePng: not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let bpp = 0;
  const idat: Uint8Array[] = [];
  while (offset + 12 <= png.length) {
    const length = view.getUint32(offset);
    const end = offset + 8 + length;
    if (end + 4 > png.length) throw new Error('decodePng: truncated chunk');
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (crc32(png.subarray(offset + 4, end)) !== view.getUint32(end)) {
      throw new Error(`decodePng: bad CRC in ${type}`);
    }
    const data = png.subarray(offset + 8, end);
    if (type === 'IHDR') {
      const h = new DataView(data.buffer, data.byteOffset, data.byteLength);
      width = h.getUint32(0);
      height = h.getUint32(4);
      const colorType = data[9];
      bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
      if (data[8] !== 8 || bpp === 0 || data[12] !== 0) throw new Error('decodePng: unsupported PNG kind');
      if (width < 1 || height < 1 || width > MAX_DECODED_SIDE || height > MAX_DECODED_SIDE) {
        throw new Error('decodePng: unsupported size');
      }
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset = end + 4;
  }
  if (bpp === 0) throw new Error('decodePng: no header');
  const stride = width * bpp;
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  if (raw.length !== (stride + 1) * height) throw new Error('decodePng: wrong amount of pixel data');
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    if (filter > 4) throw new Error(`decodePng: bad filter ${filter}`);
    const src = y * (stride + 1) + 1;
    const at = y * stride;
    for (let k = 0; k < stride; k++) {
      const a = k >= bpp ? rows[at + k - bpp]! : 0;
      const b = y > 0 ? rows[at - stride + k]! : 0;
      const c = k >= bpp && y > 0 ? rows[at - stride + k - bpp]! : 0;
      const predictor =
        filter === 0
          ? 0
          : filter === 1
            ? a
            : filter === 2
              ? b
              : filter === 3
                ? (a + b) >>> 1
                : paeth(a, b, c);
      rows[at + k] = (raw[src + k]! + predictor) & 0xff;
    }
  }
  if (bpp === 4) return { width, height, rgba: rows };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[4 * i] = rows[3 * i]!;
    rgba[4 * i + 1] = rows[3 * i + 1]!;
    rgba[4 * i + 2] = rows[3 * i + 2]!;
    rgba[4 * i + 3] = 255;
  }
  return { width, height, rgba };
}
