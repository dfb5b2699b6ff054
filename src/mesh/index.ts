// Mesh analysis and previews for uploaded models: pure TypeScript, no I/O (node:zlib for PNG only).
//
// Server use, one file read in chunks (e.g. 1 MiB):
//   const format = detectFormat(firstBytes, size, ext);        // or a MeshError (400/422)
//   const analyzer = createMeshAnalyzer(format, { totalSize: size, collectTriangles: 200_000 });
//   for each chunk: analyzer.push(chunk);
//   const analysis = analyzer.finish();                        // or a MeshError (422)
//   const tris = analyzer.previewTriangles();                  // small models: render at once
//   const png = tris ? previewPng(tris, { color }) : a second pass through createPreviewRenderer

export {
  type AnalyzerOptions,
  analyzeMesh,
  CHUNK_BYTES,
  createMeshAnalyzer,
  type MeshAnalyzer,
} from './analysis.ts';
export { MAX_COORDINATE } from './coordinates.ts';
export { DETECT_BYTES, detectFormat } from './detect.ts';
export { assertEnclosesVolume, enclosesVolume, NO_VOLUME_MESSAGE } from './encloses-volume.ts';
export { MeshError, type MeshErrorCode } from './errors.ts';
export { MAX_TRIANGLES } from './geometry.ts';
export { createParser } from './parse.ts';
export { crc32, encodePng } from './png.ts';
export {
  collectFed,
  createPreviewRenderer,
  type PreviewRenderer,
  previewPng,
  renderFed,
} from './preview.ts';
export { DEFAULT_PREVIEW_SIZE, type PreviewOptions, renderPreview } from './rasterise.ts';
export { type EarlyParts, type GrowingFile, readEarlyParts } from './threemf/early-parts.ts';
export { analyse3mf, read3mf, type ThreeMfModel } from './threemf/read.ts';
export type {
  BoundingBox,
  MeshAnalysis,
  MeshExtension,
  MeshFormat,
  ModelExtension,
  ModelFormat,
  TriangleSink,
  Vec3,
} from './types.ts';
