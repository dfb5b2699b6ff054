// Preview images of uploaded models, with bounded memory: a small model's triangles can be kept by
// the analyzer (createMeshAnalyzer's collectTriangles) and rendered at once; a big one is rendered
// by streaming the file a second time through createPreviewRenderer, framed on the box the
// analysis found. A stored preview is drawn once, in one colour; recolorPreview turns it into any
// other colour without drawing it again.

import { CollectSink } from './collect.ts';
import { MAX_TRIANGLES } from './geometry.ts';
import { createParser } from './parse.ts';
import { decodePng, encodePng, encodePngAsync } from './png.ts';
import {
  DEFAULT_PREVIEW_SIZE,
  type PreviewOptions,
  parseHexColor,
  Rasteriser,
  renderPreview,
  toLinear,
  toSrgbByte,
} from './rasterise.ts';
import type { BoundingBox, MeshFormat, TriangleSink } from './types.ts';

export interface PreviewRenderer {
  push(chunk: Uint8Array): void;
  /** The RGBA pixels, width x height. */
  finish(): Uint8Array;
}

/** A second pass over the file: chunks in, RGBA pixels out. */
export function createPreviewRenderer(
  format: MeshFormat,
  bbox: BoundingBox,
  options: PreviewOptions = {},
): PreviewRenderer {
  const raster = new Rasteriser(options);
  raster.fitBox(bbox);
  const parser = createParser(format, raster);
  return {
    push: (chunk) => parser.push(chunk),
    finish: () => {
      parser.finish();
      return raster.image();
    },
  };
}

/** A pass over a model (feed hands its triangles to the sink): RGBA pixels, framed on bbox. */
export function renderFed(
  bbox: BoundingBox,
  options: PreviewOptions,
  feed: (sink: TriangleSink) => void,
): Uint8Array {
  const raster = new Rasteriser(options);
  raster.fitBox(bbox);
  feed(raster);
  return raster.image();
}

/** A pass over a model that keeps every triangle (for the view mesh), up to MAX_TRIANGLES. */
export function collectFed(feed: (sink: TriangleSink) => void): Float32Array {
  const sink = new CollectSink(MAX_TRIANGLES);
  feed(sink);
  const triangles = sink.result();
  if (!triangles) throw new Error('The model has too many triangles to keep.');
  return triangles;
}

/** PNG bytes of in-memory triangles (9 numbers each), with the default 512 x 512 size. */
export function previewPng(triangles: Float32Array | Float64Array, options: PreviewOptions = {}): Uint8Array {
  const width = options.width ?? DEFAULT_PREVIEW_SIZE;
  const height = options.height ?? DEFAULT_PREVIEW_SIZE;
  return encodePng(renderPreview(triangles, { ...options, width, height }), width, height);
}

/** Base colour channels closer than this (linear) cannot tell the diffuse light from the highlight. */
const MIN_CHANNEL_SPREAD = 0.05;

/**
 * A preview drawn in `baseHex` as if drawn in `colorHex`. The rasteriser makes each channel of a pixel
 * `base[k] x diffuse + highlight` (linear light, averaged over the pixel's covered samples), so two
 * channels whose base values differ give both: the light and the highlight are kept, only the colour
 * changes, and coverage (alpha) is untouched. Where the base channel saturated (the brightest faces) the
 * next channel is used; a grey base has no such pair, and its light is taken as all diffuse.
 */
export function recolorPreview(rgba: Uint8Array, baseHex: string, colorHex: string): Uint8Array {
  const base = parseHexColor(baseHex).map(toLinear) as [number, number, number];
  const [cr, cg, cb] = parseHexColor(colorHex).map(toLinear) as [number, number, number];
  // Channels by their base value: hi, mid, lo. The light is read from hi (or mid where hi saturated)
  // against lo, when their base values differ enough.
  const [hi, mid, lo] = [0, 1, 2].sort((a, b) => base[b]! - base[a]!) as [number, number, number];
  const spreadHi = base[hi] - base[lo];
  const spreadMid = base[mid] - base[lo];
  const useHi = spreadHi >= MIN_CHANNEL_SPREAD;
  const useMid = spreadMid >= MIN_CHANNEL_SPREAD;
  const baseLo = base[lo];
  const baseHi = base[hi];
  const out = new Uint8Array(rgba.length);
  for (let o = 0; o < rgba.length; o += 4) {
    const alpha = rgba[o + 3]!;
    out[o + 3] = alpha;
    if (alpha === 0) continue;
    const vHi = rgba[o + hi]!;
    const vMid = rgba[o + mid]!;
    let diffuse: number;
    let highlight = 0;
    if ((useHi && vHi < 255) || (useMid && vMid < 255)) {
      const pLo = LINEAR[rgba[o + lo]!]!;
      diffuse = useHi && vHi < 255 ? (LINEAR[vHi]! - pLo) / spreadHi : (LINEAR[vMid]! - pLo) / spreadMid;
      if (diffuse < 0) diffuse = 0;
      highlight = pLo - baseLo * diffuse;
      if (highlight < 0) highlight = 0;
    } else {
      // A grey base, or every usable channel saturated: as bright as the base allows.
      diffuse = baseHi > 0 ? LINEAR[vHi]! / baseHi : 0;
    }
    out[o] = srgbByte(cr * diffuse + highlight);
    out[o + 1] = srgbByte(cg * diffuse + highlight);
    out[o + 2] = srgbByte(cb * diffuse + highlight);
  }
  return out;
}

/** sRGB bytes as linear light. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => toLinear(v));
/** Linear light in 1/65536 steps as sRGB bytes: fine enough for the darkest shades (12.92 x 255 / 65536). */
const SRGB_STEPS = 65536;
const SRGB = Uint8Array.from({ length: SRGB_STEPS + 1 }, (_, k) => toSrgbByte(k / SRGB_STEPS));
const srgbByte = (l: number) => SRGB[l <= 0 ? 0 : l >= 1 ? SRGB_STEPS : Math.round(l * SRGB_STEPS)]!;

/**
 * PNG bytes of a preview (as previewPng wrote it, drawn in `baseHex`) recoloured to `colorHex`, made while
 * a request waits: compressed on zlib's thread pool, at a level that trades a few bytes for time.
 */
export function recolorPreviewPng(png: Uint8Array, baseHex: string, colorHex: string): Promise<Uint8Array> {
  const { width, height, rgba } = decodePng(png);
  return encodePngAsync(recolorPreview(rgba, baseHex, colorHex), width, height);
}
