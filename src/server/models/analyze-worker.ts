import fs from 'node:fs';
import {
  analyse3mf,
  assertEnclosesVolume,
  collectFed,
  createMeshAnalyzer,
  createParser,
  DEFAULT_PREVIEW_SIZE,
  DETECT_BYTES,
  detectFormat,
  encodePng,
  type MeshAnalysis,
  MeshError,
  type MeshErrorCode,
  type MeshFormat,
  type ModelExtension,
  previewPng,
  read3mf,
  renderFed,
  type ThreeMfModel,
  type TriangleSink,
} from '../../mesh/index.ts';
import { INLINE_EXTRAS_TRIANGLES } from './inline-extras.ts';
import { readChunks } from './read-chunks.ts';
import { buildViewMesh, type ViewMesh } from './view-mesh.ts';

// Runs in a piscina worker thread (loaded through analyze-worker.mjs): reads an uploaded temp file (STL and
// OBJ in 1 MiB chunks, a 3MF archive whole), analyses it and, for a model whose triangles it still holds,
// renders its preview and writes its view mesh (the GLB the 3D viewer loads) from them. A bigger model's
// preview and view mesh need more passes over the file and, past 300,000 triangles, the simplifier: they are
// made after the upload has answered (buildExtras, through extras-service.ts), so the customer waits only
// for the price. The event loop of the server never parses a model.

export type AnalyzeTask = {
  path: string;
  extension: ModelExtension;
  /** The preview's model colour, '#rrggbb'. */
  color: string;
  previewSize?: number;
};

/** buildExtras' task: the preview or the view mesh of a stored model that has none yet. */
export type ExtrasTask = AnalyzeTask & { extra: 'preview' | 'view' };
export type ViewResult = { view: ViewMesh | null; viewError: string | null };
export type ExtrasResult = ViewResult & { png: Uint8Array | null; previewError: string | null };

export type AnalyzeResult =
  | {
      ok: true;
      analysis: MeshAnalysis;
      png: Uint8Array | null;
      previewError: string | null;
      view: ViewMesh | null;
      viewError: string | null;
      /** Where the worker's time went (the upload's Server-Timing header, `npm run bench upload`). */
      timings: { analysis: number; preview: number; view: number };
    }
  | { ok: false; code: MeshErrorCode; message: string };

/** A model read once: its analysis, its triangles if few, and a way to read them all again. */
type Read = {
  analysis: MeshAnalysis;
  triangles: Float32Array | null;
  feed(sink: TriangleSink): void;
};

async function read(fd: number, size: number, extension: ModelExtension): Promise<Read> {
  if (extension === '3mf') {
    const model = await read3mfFile(fd, size);
    return { ...analyse3mf(model, { collectTriangles: INLINE_EXTRAS_TRIANGLES }), feed: model.emit };
  }
  const head = new Uint8Array(Math.min(DETECT_BYTES, size));
  fs.readSync(fd, head, 0, head.length, 0);
  const format = detectFormat(head, size, extension);
  const analyzer = createMeshAnalyzer(format, { totalSize: size, collectTriangles: INLINE_EXTRAS_TRIANGLES });
  readChunks(fd, size, (chunk) => analyzer.push(chunk));
  let analysis = analyzer.finish();
  if (analyzer.needsSecondPass()) {
    // One closed part with edges of more than two faces (a binary STL): read again, keeping the positions
    // its shells are measured from (src/mesh/shells.ts; the analysis' correctedShells and volume).
    const again = createMeshAnalyzer(format, { totalSize: size, keepPositions: true });
    readChunks(fd, size, (chunk) => again.push(chunk));
    analysis = again.finish();
  }
  return { analysis, triangles: analyzer.previewTriangles(), feed: chunkFeed(fd, size, format) };
}

/** Reads an STL or OBJ file again, chunk by chunk, into a sink. */
function chunkFeed(fd: number, size: number, format: MeshFormat) {
  return (sink: TriangleSink) => {
    const parser = createParser(format, sink);
    readChunks(fd, size, (chunk) => parser.push(chunk));
    parser.finish();
  };
}

async function read3mfFile(fd: number, size: number): Promise<ThreeMfModel> {
  const bytes = new Uint8Array(size);
  fs.readSync(fd, bytes, 0, size, 0);
  return read3mf(bytes);
}

function preview(task: AnalyzeTask, model: Read) {
  const side = task.previewSize ?? DEFAULT_PREVIEW_SIZE;
  const options = { width: side, height: side, color: task.color };
  if (model.triangles) return previewPng(model.triangles, options);
  return encodePng(renderFed(model.analysis.bbox, options, model.feed), side, side);
}

/** The preview is a picture, not a verdict: a model that was read is accepted even if it fails. */
function tryPreview(task: AnalyzeTask, model: Read): Pick<ExtrasResult, 'png' | 'previewError'> {
  try {
    return { png: preview(task, model), previewError: null };
  } catch (err) {
    return { png: null, previewError: String(err) };
  }
}

/** Like the preview, the view mesh never refuses a model: the viewer then says it cannot show it. */
async function tryView(model: Pick<Read, 'triangles' | 'feed'>): Promise<ViewResult> {
  try {
    return { view: await buildViewMesh(model.triangles ?? collectFed(model.feed)), viewError: null };
  } catch (err) {
    return { view: null, viewError: String(err) };
  }
}

export default async function analyzeFile(task: AnalyzeTask): Promise<AnalyzeResult> {
  const fd = fs.openSync(task.path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let model: Read;
    const started = performance.now();
    try {
      model = await read(fd, size, task.extension);
      // A lone triangle or a flat sheet parses fine but encloses nothing: there is no solid to print. A tiny
      // closed model is accepted: its card shows its size and offers the one-click scale from inches.
      assertEnclosesVolume(model.analysis);
    } catch (err) {
      if (err instanceof MeshError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
    // null and no error: made later (extras-service.ts), not in the customer's wait for a price.
    const analysed = performance.now();
    const pictured = model.triangles ? tryPreview(task, model) : { png: null, previewError: null };
    const previewed = performance.now();
    const viewed: ViewResult = model.triangles ? await tryView(model) : { view: null, viewError: null };
    const timings = {
      analysis: analysed - started,
      preview: previewed - analysed,
      view: performance.now() - previewed,
    };
    return { ok: true, analysis: model.analysis, ...pictured, ...viewed, timings };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A stored model's preview or view mesh (piscina's `name: 'buildExtras'`): a big model's after its
 * upload answered, or one missing for any other reason (made when first asked for).
 */
export async function buildExtras(task: ExtrasTask): Promise<ExtrasResult> {
  const fd = fs.openSync(task.path, 'r');
  try {
    const model = await read(fd, fs.fstatSync(fd).size, task.extension);
    return {
      ...(task.extra === 'preview' ? tryPreview(task, model) : { png: null, previewError: null }),
      ...(task.extra === 'view' ? await tryView(model) : { view: null, viewError: null }),
    };
  } finally {
    fs.closeSync(fd);
  }
}
