import fs from 'node:fs';
import {
  createMeshAnalyzer,
  createPreviewRenderer,
  createTriangleCollector,
  DEFAULT_PREVIEW_SIZE,
  DETECT_BYTES,
  detectFormat,
  encodePng,
  type MeshAnalysis,
  MeshError,
  type MeshErrorCode,
  type MeshFormat,
  previewPng,
} from '../../mesh/index.ts';
import { readChunks } from './read-chunks.ts';
import { buildViewMesh, type ViewMesh } from './view-mesh.ts';

// Runs in a piscina worker thread (loaded through analyze-worker.mjs): reads an uploaded temp file in
// 1 MiB chunks, analyses it, renders its preview and writes its view mesh (the GLB the 3D viewer loads).
// The event loop of the server never parses a model.

export type AnalyzeTask = {
  path: string;
  extension: 'stl' | 'obj';
  /** The preview's model colour, '#rrggbb'. */
  color: string;
  previewSize?: number;
};

/** buildView's task: the view mesh of a model stored before view meshes existed. */
export type ViewTask = { path: string; extension: 'stl' | 'obj' };
export type ViewResult = { view: ViewMesh | null; viewError: string | null };

export type AnalyzeResult =
  | {
      ok: true;
      analysis: MeshAnalysis;
      png: Uint8Array | null;
      previewError: string | null;
      view: ViewMesh | null;
      viewError: string | null;
    }
  | { ok: false; code: MeshErrorCode; message: string };

/** Triangles kept for a one-pass preview; bigger models are streamed a second time. */
const PREVIEW_TRIANGLES = 200_000;

/** 1 mm³: an open mesh enclosing less is a surface, not a solid. */
const MIN_VOLUME_CM3 = 0.001;
/** A closed mesh is a solid however small (e.g. drawn in inches: 0.89 mm³ is 14.6 cm³), down to this. */
const MIN_CLOSED_VOLUME_CM3 = 1e-9;

function analyse(fd: number, size: number, task: AnalyzeTask) {
  const head = new Uint8Array(Math.min(DETECT_BYTES, size));
  fs.readSync(fd, head, 0, head.length, 0);
  const format = detectFormat(head, size, task.extension);
  const analyzer = createMeshAnalyzer(format, { totalSize: size, collectTriangles: PREVIEW_TRIANGLES });
  readChunks(fd, size, (chunk) => analyzer.push(chunk));
  const analysis = analyzer.finish();
  return { analysis, triangles: analyzer.previewTriangles() };
}

function preview(
  fd: number,
  size: number,
  task: AnalyzeTask,
  analysis: MeshAnalysis,
  triangles: Float32Array | null,
) {
  const side = task.previewSize ?? DEFAULT_PREVIEW_SIZE;
  const options = { width: side, height: side, color: task.color };
  if (triangles) return previewPng(triangles, options);
  const renderer = createPreviewRenderer(analysis.format, analysis.bbox, options);
  readChunks(fd, size, (chunk) => renderer.push(chunk));
  return encodePng(renderer.finish(), side, side);
}

/** The view mesh from the triangles already in memory, or from another pass over the file. */
async function view(fd: number, size: number, format: MeshFormat, triangles: Float32Array | null) {
  let soup = triangles;
  if (!soup) {
    const collector = createTriangleCollector(format);
    readChunks(fd, size, (chunk) => collector.push(chunk));
    soup = collector.finish();
  }
  return buildViewMesh(soup);
}

/** Like the preview, the view mesh never refuses a model: the viewer then says it cannot show it. */
async function tryView(
  fd: number,
  size: number,
  format: MeshFormat,
  triangles: Float32Array | null,
): Promise<ViewResult> {
  try {
    return { view: await view(fd, size, format, triangles), viewError: null };
  } catch (err) {
    return { view: null, viewError: String(err) };
  }
}

export default async function analyzeFile(task: AnalyzeTask): Promise<AnalyzeResult> {
  const fd = fs.openSync(task.path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let result: ReturnType<typeof analyse>;
    try {
      result = analyse(fd, size, task);
      // A lone triangle or a flat sheet parses fine but encloses nothing: there is no solid to print. A tiny
      // closed model is accepted: its card shows its size and offers the one-click scale from inches.
      const { volumeCm3, watertight } = result.analysis;
      if (volumeCm3 < (watertight ? MIN_CLOSED_VOLUME_CM3 : MIN_VOLUME_CM3)) {
        return {
          ok: false,
          code: 'no-volume',
          message:
            'This model encloses no volume (it is a flat or open surface), so there is nothing to print.',
        };
      }
    } catch (err) {
      if (err instanceof MeshError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
    // The preview is a picture, not a verdict: a model that was read is accepted even if it fails.
    let png: Uint8Array | null = null;
    let previewError: string | null = null;
    try {
      png = preview(fd, size, task, result.analysis, result.triangles);
    } catch (err) {
      previewError = String(err);
    }
    const viewed = await tryView(fd, size, result.analysis.format, result.triangles);
    return { ok: true, analysis: result.analysis, png, previewError, ...viewed };
  } finally {
    fs.closeSync(fd);
  }
}

/** A stored model's view mesh (piscina's `name: 'buildView'`). */
export async function buildView(task: ViewTask): Promise<ViewResult> {
  const fd = fs.openSync(task.path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const head = new Uint8Array(Math.min(DETECT_BYTES, size));
    fs.readSync(fd, head, 0, head.length, 0);
    return await tryView(fd, size, detectFormat(head, size, task.extension), null);
  } finally {
    fs.closeSync(fd);
  }
}
