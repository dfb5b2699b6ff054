// Preview images of uploaded models, with bounded memory: a small model's triangles can be kept by
// the analyzer (createMeshAnalyzer's collectTriangles) and rendered at once; a big one is rendered
// by streaming the file a second time through createPreviewRenderer, framed on the box the
// analysis found.

import { CollectSink } from './collect.ts';
import { MAX_TRIANGLES } from './geometry.ts';
import { createParser } from './parse.ts';
import { encodePng } from './png.ts';
import { DEFAULT_PREVIEW_SIZE, type PreviewOptions, Rasteriser, renderPreview } from './rasterise.ts';
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
