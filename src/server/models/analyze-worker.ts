import fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { startCensusHelper } from '../../mesh/census-thread.ts';
import {
  analyse3mf,
  assertEnclosesVolume,
  CHUNK_BYTES,
  collectFed,
  createMeshAnalyzer,
  createParser,
  DEFAULT_PREVIEW_SIZE,
  DETECT_BYTES,
  detectFormat,
  type EarlyParts,
  encodePng,
  type GrowingFile,
  type MeshAnalysis,
  MeshError,
  type MeshErrorCode,
  type MeshExtension,
  type MeshFormat,
  type ModelExtension,
  previewPng,
  read3mf,
  readEarlyParts,
  renderFed,
  type ThreeMfModel,
  type TriangleSink,
} from '../../mesh/index.ts';
import { HEADER_BYTES, RECORD_BYTES } from '../../mesh/stl-binary.ts';
import type { WeldedMesh } from '../../mesh/topology.ts';
import { FollowAborted, FollowReader } from './follow-file.ts';
import { INLINE_EXTRAS_TRIANGLES } from './inline-extras.ts';
import { readBuffer, readChunks } from './read-chunks.ts';
import {
  COARSE_VIEW_ABOVE,
  coarseViewMeshOf,
  type Indexed,
  indexedOf,
  type ViewMesh,
  viewMeshOf,
  weldSoup,
} from './view-mesh.ts';

// Runs in a piscina worker thread (loaded through analyze-worker.mjs): reads an uploaded temp file (STL and
// OBJ in 1 MiB chunks, a 3MF archive whole), analyses it and, for a model whose triangles it still holds,
// renders its preview and makes its view mesh (the GLB the 3D viewer loads). Given a port (the upload's
// task), it answers through the port as soon as that is done, so the customer waits only for the price;
// once the main thread says the answer is out ('go'), a big model's extras follow in the same task, from
// what the analysis has in memory (the watertight check's welded mesh for STL and OBJ, the read archive for
// 3MF): its coarse view first (posted), its preview (posted), then its view mesh, the task's result. The
// file is not read again. Without a port (the old path) a big model's extras are made later, reading the
// file again (buildExtras). The event loop of the server never parses a model.

export type AnalyzeTask = {
  path: string;
  extension: ModelExtension;
  /** The preview's model colour, '#rrggbb'. */
  color: string;
  previewSize?: number;
  /**
   * The upload's: the answer goes through it as soon as the analysis is done ({ kind: 'answer' }), then a
   * big model's coarse view and preview; the task's own result is then the view mesh (UploadViewResult).
   */
  port?: MessagePort;
  /**
   * An upload still streaming in: the file is read as it grows (a 3MF's model parts), as the main thread
   * tells through `progress` (follow-file.ts); `expectedSize`, the request's length, presizes the tables
   * until the real size is known. The answer is the same as from the whole file (its format is checked again
   * against the real size, and the file read whole if it differs; a 3MF's parts are taken only where its
   * central directory places them).
   */
  follow?: { progress: SharedArrayBuffer; expectedSize: number };
  /**
   * An upload's: [0] of an Int32Array over it is how many models wait for their analysis (fair-queue.ts),
   * read once after the answer: while one does, the views are left for later (UploadViewResult's deferred).
   */
  waiting?: SharedArrayBuffer;
};

/** What an upload's task posts through its port, in this order ('coarse' and 'preview' only if made). */
export type UploadMessage =
  | { kind: 'answer'; result: AnalyzeResult }
  | { kind: 'coarse'; view: ViewMesh | null }
  | { kind: 'preview'; png: Uint8Array | null; previewError: string | null };

/** What the main thread tells an upload's task after the answer. */
export type UploadTurn = 'go' | 'stop';

/**
 * An upload task's result, after its answer: the view mesh (null for a refused model). `deferred`: another
 * model waited for its analysis, so the view mesh was left to be made when first asked for.
 */
export type UploadViewResult = (ViewResult & { ms: number; deferred?: boolean }) | null;
/** How an upload task ends: its view mesh, and how many messages it posted first (all to be read). */
export type UploadTaskEnd = { posted: number; view: UploadViewResult };

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
      /**
       * Where the worker's time went (the upload's Server-Timing header, `npm run bench upload`); a followed
       * upload's analysis counts from its last byte, `streamed` is the work done while it was arriving.
       */
      timings: { analysis: number; preview: number; view: number; streamed?: number };
    }
  | { ok: false; code: MeshErrorCode; message: string };

/** A model read once: its analysis, its triangles if few, and a way to read them all again. */
type Read = {
  analysis: MeshAnalysis;
  triangles: Float32Array | null;
  feed(sink: TriangleSink): void;
  /** The watertight check's welded mesh, when asked for (keepMesh) and the format has one (STL, OBJ). */
  mesh: WeldedMesh | null;
};

async function read(
  fd: number,
  size: number,
  extension: ModelExtension,
  keepMesh = false,
  followed?: Followed3mf,
): Promise<Read> {
  if (extension === '3mf') {
    const model = await read3mfFile(fd, size, followed);
    const read = analyse3mf(model, { collectTriangles: INLINE_EXTRAS_TRIANGLES });
    return { ...read, feed: model.emit, mesh: null };
  }
  const head = new Uint8Array(Math.min(DETECT_BYTES, size));
  fs.readSync(fd, head, 0, head.length, 0);
  const format = detectFormat(head, size, extension);
  const options = { totalSize: size, keepMesh };
  const analyzer = createMeshAnalyzer(format, { ...options, collectTriangles: INLINE_EXTRAS_TRIANGLES });
  readChunks(fd, size, (chunk) => analyzer.push(chunk));
  return finishRead(fd, size, format, analyzer, options);
}

function finishRead(
  fd: number,
  size: number,
  format: MeshFormat,
  analyzer: ReturnType<typeof createMeshAnalyzer>,
  options: { totalSize: number; keepMesh: boolean },
): Read {
  let analysis = analyzer.finish();
  let mesh = analyzer.weldedMesh();
  if (analyzer.needsSecondPass()) {
    // One closed part with edges of more than two faces (a binary STL): read again, keeping the positions
    // its shells are measured from (src/mesh/shells.ts; the analysis' correctedShells and volume).
    mesh = null;
    const again = createMeshAnalyzer(format, { ...options, keepPositions: true });
    readChunks(fd, size, (chunk) => again.push(chunk));
    analysis = again.finish();
    mesh = again.weldedMesh();
  }
  return { analysis, triangles: analyzer.previewTriangles(), feed: chunkFeed(fd, size, format), mesh };
}

/** Room for the form around the file in a multipart body (its headers, a few small fields). */
const MULTIPART_SLACK = 16 * 1024;

/**
 * The file's size as far as it can be told before it has all arrived: a binary STL's own count when the
 * request's length agrees with it, else that length (an upper bound).
 */
function sizeGuess(head: Uint8Array, extension: ModelExtension, upper: number): number {
  if (extension === 'stl' && head.length >= HEADER_BYTES) {
    const declared = new DataView(head.buffer, head.byteOffset, HEADER_BYTES).getUint32(80, true);
    const expected = HEADER_BYTES + RECORD_BYTES * declared;
    if (expected <= upper && upper - expected <= MULTIPART_SLACK) return expected;
  }
  return upper;
}

function detectOrNull(head: Uint8Array, size: number, extension: MeshExtension): MeshFormat | null {
  try {
    return detectFormat(head, size, extension);
  } catch (err) {
    if (err instanceof MeshError) return null;
    throw err;
  }
}

/**
 * An upload read while it streams in, an STL or OBJ in the same 1 MiB chunks as readChunks (a 3MF's model
 * parts from their local headers, early-parts.ts), so that little is left to do once its last byte lands.
 * Its format is told from its first bytes and the expected size, and told again from the real size at the
 * end: if the two differ (or the first could not be told) the file is read whole, as without following. A
 * model found invalid half-way is refused once the upload has ended.
 */
async function followRead(
  fd: number,
  task: AnalyzeTask,
  follow: FollowReader,
  keepMesh: boolean,
): Promise<Read> {
  const extension = task.extension;
  if (extension === '3mf') {
    // Its model parts read from their local headers as they land; the whole file decides the rest.
    const file = growingFile(fd, follow);
    const early = await readEarlyParts(file);
    return read(fd, follow.waitForEnd(), extension, keepMesh, { early, whole: file.whole });
  }
  const endedFirst = follow.ended; // before `available`, as below: a true one makes `available` the size
  let available = follow.waitFor(DETECT_BYTES);
  const head = new Uint8Array(Math.min(DETECT_BYTES, available));
  fs.readSync(fd, head, 0, head.length, 0);
  const guess = endedFirst ? available : sizeGuess(head, extension, task.follow!.expectedSize);
  const format = detectOrNull(head, Math.max(guess, head.length), extension);
  if (!format) return read(fd, follow.waitForEnd(), extension, keepMesh);
  const options = { totalSize: guess, keepMesh };
  const analyzer = createMeshAnalyzer(format, { ...options, collectTriangles: INLINE_EXTRAS_TRIANGLES });
  const buffer = readBuffer(CHUNK_BYTES);
  let position = 0;
  let failure: MeshError | null = null;
  while (!failure) {
    // `ended` first: the writer stores the final size before it marks the end, so what `available` says
    // after a true `ended` is everything. Read the other way round, an end landing between the two reads
    // would stop the loop short of the file's tail.
    const ended = follow.ended;
    // While the next chunk is not there, the analysis does what it would do after the last byte.
    available = follow.waitFor(position + CHUNK_BYTES, analyzer.spare);
    while (position < available && (ended || available - position >= CHUNK_BYTES)) {
      const n = fs.readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, available - position), position);
      if (n === 0) throw new Error('The upload file is shorter than told.');
      position += n;
      try {
        analyzer.push(buffer.subarray(0, n));
      } catch (err) {
        if (!(err instanceof MeshError)) throw err;
        failure = err;
        break;
      }
    }
    if (ended) break;
  }
  const size = follow.waitForEnd();
  if (detectOrNull(head, size, extension) !== format) return read(fd, size, extension, keepMesh);
  if (failure) throw failure;
  return finishRead(fd, size, format, analyzer, { totalSize: size, keepMesh });
}

/** Reads an STL or OBJ file again, chunk by chunk, into a sink. */
function chunkFeed(fd: number, size: number, format: MeshFormat) {
  return (sink: TriangleSink) => {
    const parser = createParser(format, sink);
    readChunks(fd, size, (chunk) => parser.push(chunk));
    parser.finish();
  };
}

/** A 3MF file read whole; followed: its parts read early, and its bytes if the early read had them all. */
async function read3mfFile(fd: number, size: number, followed?: Followed3mf): Promise<ThreeMfModel> {
  let bytes = followed?.whole?.length === size ? followed.whole : null;
  if (!bytes) {
    bytes = new Uint8Array(size);
    fs.readSync(fd, bytes, 0, size, 0);
  }
  return read3mf(bytes, followed ? { early: followed.early } : {});
}

type Followed3mf = { early: EarlyParts; whole: Uint8Array | null };

/**
 * The growing temp file of a followed upload, as early-parts.ts reads it; `whole` keeps the last read of the
 * file from its start (the whole file, when the early read opened it at the end), for the whole read.
 */
function growingFile(fd: number, follow: FollowReader): GrowingFile & { whole: Uint8Array | null } {
  return {
    whole: null,
    waitFor: (want) => follow.waitForAsync(want),
    ended: () => follow.endedOrThrow(),
    read(position, length) {
      const bytes = new Uint8Array(length);
      if (fs.readSync(fd, bytes, 0, length, position) !== length)
        throw new Error('The upload file is shorter than told.');
      if (position === 0) this.whole = bytes;
      return bytes;
    },
  };
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
async function tryView(model: Read): Promise<ViewResult> {
  try {
    return { view: await viewMeshOf(indexedMesh(model)), viewError: null };
  } catch (err) {
    return { view: null, viewError: String(err) };
  }
}

/** The model's indexed mesh for its views: the analysis' welded mesh, else its triangles welded. */
function indexedMesh(model: Read): Indexed {
  if (model.mesh) return indexedOf(model.mesh);
  return weldSoup(model.triangles ?? collectFed(model.feed));
}

/**
 * After an upload's answer: a big model's coarse view and preview, posted as they are made, then its view
 * mesh, all from the mesh in memory. A failure leaves that extra out (made again when asked for). When
 * another model is waiting for its analysis by then, both views are left for later (deferred: the full view
 * is made when the viewer first asks for it, from the stored file) so that its price does not wait behind
 * them; the preview, which the model's card shows at once and which costs a fraction of a view, is made all
 * the same. Decided once, before the coarse view: a coarse view is only worth making with its full view.
 */
async function uploadExtras(task: AnalyzeTask, port: Port, model: Read): Promise<UploadViewResult> {
  const started = performance.now();
  const ms = () => performance.now() - started;
  const deferred = task.waiting !== undefined && Atomics.load(new Int32Array(task.waiting), 0) > 0;
  let mesh: Indexed;
  try {
    mesh = indexedMesh(model);
  } catch (err) {
    return { view: null, viewError: String(err), ms: ms() };
  }
  model.mesh = null;
  if (model.analysis.triangles > COARSE_VIEW_ABOVE && !deferred) {
    const coarse = await coarseViewMeshOf(mesh).catch(() => null);
    port.postMessage({ kind: 'coarse', view: coarse }, transfer(coarse?.glb));
  }
  if (!model.triangles) {
    const { png, previewError } = tryPreview(task, { ...model, feed: indexedFeed(mesh) });
    port.postMessage({ kind: 'preview', png, previewError }, transfer(png));
  }
  if (deferred) return { view: null, viewError: null, ms: ms(), deferred: true };
  try {
    return { view: await viewMeshOf(mesh), viewError: null, ms: ms() };
  } catch (err) {
    return { view: null, viewError: String(err), ms: ms() };
  }
}

/**
 * The buffer under bytes, handed over to the main thread rather than copied (nothing here reads it again);
 * copied when bytes are a slice of a bigger buffer (Node's pool of small Buffers is never handed over).
 */
function transfer(bytes: Uint8Array | null | undefined): ArrayBuffer[] {
  if (bytes?.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return [];
  return [bytes.buffer as ArrayBuffer];
}

/** Feeds an indexed mesh's triangles to a sink in batches, as a parser would. */
function indexedFeed(mesh: Indexed) {
  return (sink: TriangleSink) => {
    const BATCH = 4096;
    const batch = new Float64Array(9 * BATCH);
    const { positions, indices } = mesh;
    const n = indices.length / 3;
    for (let t = 0; t < n; t += BATCH) {
      const count = Math.min(BATCH, n - t);
      for (let c = 0; c < 3 * count; c++) {
        const v = 3 * indices[3 * t + c]!;
        batch[3 * c] = positions[v]!;
        batch[3 * c + 1] = positions[v + 1]!;
        batch[3 * c + 2] = positions[v + 2]!;
      }
      sink.triangles(batch, null, count);
    }
  };
}

/** How long the extras wait for the main thread's word before going on all the same. */
const TURN_WAIT_MS = 2_000;

/** The main thread's word that the upload answered ('go') or failed ('stop': nothing more to make). */
function turn(port: MessagePort): Promise<UploadTurn> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done('go'), TURN_WAIT_MS);
    const onMessage = (message: UploadTurn) => done(message);
    function done(word: UploadTurn) {
      clearTimeout(timer);
      port.off('message', onMessage);
      port.unref();
      resolve(word);
    }
    port.on('message', onMessage);
  });
}

/** The upload's port, counting what is posted through it. */
class Port {
  posted = 0;
  constructor(private readonly port: MessagePort) {}
  postMessage(message: UploadMessage, transferList: ArrayBuffer[] = []) {
    this.port.postMessage(message, transferList);
    this.posted++;
  }
}

export default async function analyzeFile(task: AnalyzeTask): Promise<AnalyzeResult | UploadTaskEnd> {
  if (!task.port) return analyse(task, null) as Promise<AnalyzeResult>;
  const port = new Port(task.port);
  try {
    const view = await analyse(task, port);
    return { posted: port.posted, view: view as UploadViewResult };
  } catch (err) {
    // Given up by the main thread: it reads the file itself, or the upload failed. Nothing was posted.
    if (err instanceof FollowAborted) return { posted: port.posted, view: null };
    throw err;
  }
}

async function analyse(task: AnalyzeTask, port: Port | null): Promise<AnalyzeResult | UploadViewResult> {
  const follow = task.follow ? new FollowReader(task.follow.progress) : null;
  // A followed file exists once its first byte is told (or the upload ended empty).
  follow?.waitFor(1);
  const fd = fs.openSync(task.path, 'r');
  let model: Read;
  let answer: AnalyzeResult;
  try {
    let started = performance.now();
    let streamed: number | undefined;
    try {
      if (follow) {
        const began = started;
        model = await followRead(fd, task, follow, port !== null);
        // The customer waits only for what is left after the last byte.
        started = Math.max(began, follow.endSeenAt ?? began);
        streamed = started - began - follow.waitedMs;
      } else model = await read(fd, fs.fstatSync(fd).size, task.extension, port !== null);
      // A lone triangle or a flat sheet parses fine but encloses nothing: there is no solid to print. A tiny
      // closed model is accepted: its card shows its size and offers the one-click scale from inches.
      assertEnclosesVolume(model.analysis);
    } catch (err) {
      if (!(err instanceof MeshError)) throw err;
      const refused: AnalyzeResult = { ok: false, code: err.code, message: err.message };
      if (!port) return refused;
      port.postMessage({ kind: 'answer', result: refused });
      return null;
    }
    // null and no error: made later, not in the customer's wait for a price.
    const analysed = performance.now();
    const pictured = model.triangles ? tryPreview(task, model) : { png: null, previewError: null };
    const previewed = performance.now();
    // A small model's view is quick: it comes with the answer, stored with the row.
    const viewed: ViewResult = model.triangles ? await tryView(model) : { view: null, viewError: null };
    const timings = {
      analysis: analysed - started,
      preview: previewed - analysed,
      view: performance.now() - previewed,
      ...(streamed === undefined ? {} : { streamed: Math.max(0, streamed) }),
    };
    answer = { ok: true, analysis: model.analysis, ...pictured, ...viewed, timings };
    if (!port) return answer;
  } finally {
    // Not read after the answer: what the extras are made from is in memory.
    fs.closeSync(fd);
  }
  port.postMessage({ kind: 'answer', result: answer }, [
    ...transfer(answer.png),
    ...transfer(answer.view?.glb),
  ]);
  if (model.triangles) return null;
  // The answer goes out first: the extras would take the CPU the main thread needs for it.
  if ((await turn(task.port!)) === 'stop') return null;
  return uploadExtras(task, port, model);
}

/**
 * A stored model's preview or view mesh (piscina's `name: 'buildExtras'`): a big model's after its
 * upload answered, or one missing for any other reason (made when first asked for).
 */
export async function buildExtras(task: ExtrasTask): Promise<ExtrasResult> {
  const fd = fs.openSync(task.path, 'r');
  try {
    const view = task.extra === 'view';
    // The view mesh from the analysis' welded mesh: one pass over the file, not two.
    const model = await read(fd, fs.fstatSync(fd).size, task.extension, view);
    return {
      ...(view ? { png: null, previewError: null } : tryPreview(task, model)),
      ...(view ? await tryView(model) : { view: null, viewError: null }),
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** A tetrahedron, 10 mm a side, as a binary STL: what warm() reads. */
function warmupStl(): Uint8Array {
  const corners = [
    [0, 0, 0],
    [10, 0, 0],
    [0, 10, 0],
    [0, 0, 10],
  ] as const;
  const faces = [
    [0, 2, 1],
    [0, 1, 3],
    [0, 3, 2],
    [1, 2, 3],
  ] as const;
  const bytes = new Uint8Array(HEADER_BYTES + RECORD_BYTES * faces.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(80, faces.length, true);
  faces.forEach((face, f) => {
    face.forEach((corner, c) => {
      corners[corner].forEach((value, axis) => {
        view.setFloat32(HEADER_BYTES + RECORD_BYTES * f + 12 + 12 * c + 4 * axis, value, true);
      });
    });
  });
  return bytes;
}

/**
 * piscina's `name: 'warm'`, run when an upload begins on a pool with no thread (analysis-pool.ts warm()):
 * the new thread reads a tetrahedron as an upload is read (analysis, preview, view mesh), so that the
 * upload finds the modules loaded and the code compiled (~0.2 s on a new thread, against ~0.06 s on a warm
 * one) while its own bytes are still arriving.
 */
export async function warm(): Promise<null> {
  // The thread that takes big meshes' edge census while this one labels their shells (census-thread.ts).
  startCensusHelper();
  const bytes = warmupStl();
  const options = { totalSize: bytes.length, keepMesh: true, collectTriangles: INLINE_EXTRAS_TRIANGLES };
  const analyzer = createMeshAnalyzer('stl-binary', options);
  analyzer.push(bytes);
  const model: Read = {
    analysis: analyzer.finish(),
    triangles: analyzer.previewTriangles(),
    feed: (sink) => {
      const parser = createParser('stl-binary', sink);
      parser.push(bytes);
      parser.finish();
    },
    mesh: analyzer.weldedMesh(),
  };
  tryPreview({ path: '', extension: 'stl', color: '#888888' }, model);
  await tryView(model);
  return null;
}
