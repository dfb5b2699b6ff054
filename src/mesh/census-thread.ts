// The edge census of a big 3MF model on a helper thread, while this thread measures it and labels its
// shells: the census is the longest step of the watertight check (about a third of a
// 500,000-triangle 3MF's analysis), and a second core is otherwise idle then. The faces and the marks live
// in SharedArrayBuffers (Topology allocates them so for 3MF models); the helper answers through one, on
// which this thread waits with Atomics.wait. The helper starts at the analysis thread's warm-up (or on the
// first big model, whose census is made here meanwhile) and stays, unref'd: ~10 MB, plus what its last census
// used (~27 bytes a face) until its next one or until the analysis thread exits (a minute idle), since an idle
// thread does not collect. Anything wrong with it (it cannot start, an error, no answer in time) retires it
// for good: the census is then made here, into fresh marks, as it always is for small models.

import { Worker } from 'node:worker_threads';
import { censusSource, type EdgeCensus } from './edge-census.ts';

/** Faces from which the census goes to the helper: below, it takes a few milliseconds here. */
export const HELPER_FACES = 100_000;
/**
 * Far beyond any census (a 5,000,000-triangle one takes ~0.5 s, and one an analysis that failed left
 * behind is answered first): only a helper that died waits this long (its death cannot be seen while this
 * thread waits), once, before it is retired.
 */
const ANSWER_TIMEOUT_MS = 5_000;

const DONE = 1;
const FAILED = 2;

interface Helper {
  worker: Worker;
  /** [0] becomes 1 once the helper listens. */
  ready: Int32Array;
}

let helper: Helper | null = null;
let retired = false;

/** An Int32Array over shared memory (the helper reads it without a copy). */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * length));
}

/** A Uint8Array over shared memory. */
export function sharedUint8(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

/**
 * The helper's script: the census' own code (edge-census.ts is self-contained) and answerCensus, run as
 * plain JavaScript, without the process's loaders (tsx would cost the thread ~25 MB more) or any module.
 * `__name` stands in for the helper esbuild's keepNames may wrap inner functions with.
 */
function helperSource(): string {
  return [
    "'use strict';",
    'const __name = (f) => f;',
    `const DONE = ${DONE};`,
    `const FAILED = ${FAILED};`,
    censusSource(),
    answerCensus.toString(),
    "const { parentPort, workerData } = require('node:worker_threads');",
    'parentPort.on("message", (message) => answerCensus(message, edgeCensus));',
    // Ready once its census has run: a source that does not (a code transform's stray reference) never is.
    'edgeCensus(new Int32Array([0, 1, 2]), 1, 3, new Uint8Array(3));',
    'Atomics.store(workerData.ready, 0, 1);',
  ].join('\n');
}

function retire(): void {
  retired = true;
  const h = helper;
  helper = null;
  void h?.worker.terminate();
}

/** Starts the helper if it is not running (the analysis threads' warm-up does; so does a first big mesh). */
export function startCensusHelper(): void {
  if (helper !== null || retired) return;
  const ready = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker;
  try {
    worker = new Worker(helperSource(), { eval: true, execArgv: [], workerData: { ready } });
  } catch {
    // No threads allowed here (a permission model, a resource limit): every census is made here.
    retired = true;
    return;
  }
  worker.unref();
  worker.on('error', retire);
  worker.on('exit', () => {
    if (helper?.worker === worker) helper = null;
  });
  helper = { worker, ready };
}

/** Tests: every census made here (true), or handed to the helper again (false, unless it was retired). */
export function censusHere(here: boolean): void {
  forcedHere = here;
}
let forcedHere = false;

let handed = 0;

/** How many censuses were handed to a helper in this thread (tests). */
export function censusesHanded(): number {
  return handed;
}

/** Whether the helper listens now (tests). */
export function censusHelperReady(): boolean {
  return helper !== null && Atomics.load(helper.ready, 0) === 1;
}

export interface PendingCensus {
  /** The census, once the helper has made it; null if it could not (then make it here, into fresh marks). */
  wait(): EdgeCensus | null;
}

/**
 * Hands the census of faces (shared) to the helper, which writes marks (shared) as edgeCensus does; null
 * when it is made here: a small mesh, memory not shared, or no helper listening yet.
 */
export function censusElsewhere(
  faces: Int32Array,
  faceCount: number,
  vertexCount: number,
  marks: Uint8Array,
): PendingCensus | null {
  if (faceCount < HELPER_FACES || retired || forcedHere) return null;
  if (!(faces.buffer instanceof SharedArrayBuffer) || !(marks.buffer instanceof SharedArrayBuffer))
    return null;
  startCensusHelper();
  const h = helper;
  if (h === null || Atomics.load(h.ready, 0) !== 1) return null;
  const answer = sharedInt32(4);
  h.worker.postMessage({ faces, faceCount, vertexCount, marks, answer });
  handed++;
  return {
    wait() {
      Atomics.wait(answer, 0, 0, ANSWER_TIMEOUT_MS);
      if (Atomics.load(answer, 0) !== DONE) {
        retire();
        return null;
      }
      return { openEdges: answer[1]!, nonManifoldEdges: answer[2]!, oddEdges: answer[3]! };
    },
  };
}

/** The helper's side (run from its source: nothing but its arguments and DONE, FAILED): one census. */
export function answerCensus(
  message: {
    faces: Int32Array;
    faceCount: number;
    vertexCount: number;
    marks: Uint8Array;
    answer: Int32Array;
  },
  census: (faces: Int32Array, faceCount: number, vertexCount: number, marks: Uint8Array) => EdgeCensus,
): void {
  const { answer } = message;
  try {
    const c = census(message.faces, message.faceCount, message.vertexCount, message.marks);
    answer[1] = c.openEdges;
    answer[2] = c.nonManifoldEdges;
    answer[3] = c.oddEdges;
    Atomics.store(answer, 0, DONE);
  } catch {
    Atomics.store(answer, 0, FAILED);
  }
  Atomics.notify(answer, 0);
}
