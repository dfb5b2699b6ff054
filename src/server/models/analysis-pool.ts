import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type {
  AnalyzeResult,
  AnalyzeTask,
  ExtrasResult,
  ExtrasTask,
  UploadMessage,
  UploadTaskEnd,
  UploadTurn,
  UploadViewResult,
} from './analyze-worker.ts';
import { FairQueue, QueueFullError } from './fair-queue.ts';
import { FollowWriter } from './follow-file.ts';
import type { ViewMesh } from './view-mesh.ts';

// The worker threads that read models, with a memory cap per thread and a time limit per model
// (docs/security.md 30). A model past either limit is refused; the thread is replaced, the server keeps going.

/** What a task hands over to its worker rather than copying (piscina's run option). */
type TransferList = NonNullable<Parameters<Piscina['run']>[1]>['transferList'];

export type AnalysisPoolOptions = {
  /** Threads that may analyse at once (default: CPUs - 1, at least 1, at most 4). */
  maxThreads?: number;
  /** Per model, from the moment its analysis starts (not while it waits for a thread). */
  timeoutMs?: number;
  /** Models that may wait for a thread; past that, uploads are refused at once (503). Default 16 a thread. */
  maxWaiting?: number;
  /** V8 old generation of each worker. */
  maxOldGenerationSizeMb?: number;
  /**
   * Make an upload's view mesh in its own task, after its answer, from the analysis' mesh (default); false:
   * as before, a big model's later from a second read of the file (`npm run bench`'s baseline:
   * SHOP_BENCH_LAZY_VIEW=1).
   */
  viewAfterAnswer?: boolean;
  /**
   * An upload followed as it streams in (stream()) is given up, and its thread freed, when fewer bytes than
   * this arrive in a second (a slow client must not hold a thread while others could use it). Default 4 MiB.
   */
  streamMinBytesPerSecond?: number;
  /** The worker's entry (tests: one that fails on purpose); default the analysis worker beside this module. */
  workerFile?: string;
  /**
   * Ready a thread when an upload begins and none is alive (default); false: as before, the upload's task
   * starts it (`npm run bench upload`'s baseline: SHOP_BENCH_NO_WARM=1).
   */
  warmOnUpload?: boolean;
};

/**
 * An upload's analysis following its temp file while it is written (upload-stream.ts): told what landed,
 * it parses as the bytes come, so that little is left once the last one lands.
 */
export type UploadStream = {
  /** How many bytes are in the temp file now. */
  written(bytes: number): void;
  /** The upload is whole: the file's size. The time limit starts now. */
  end(size: number): void;
  /** The upload failed: the task stops, and `result` is a fallback nobody needs. */
  abort(): void;
  result: Promise<StreamOutcome>;
};

/**
 * What came of following an upload: its analysis, or why there is none and the file is to be analysed as
 * usual ('slow': the bytes came too slowly, 'busy': another model waited for its analysis meanwhile,
 * 'aborted': told to stop, 'failed': the task failed otherwise,
 * its thread crashed). A model past its time limit or memory cap rejects with AnalysisLimitError instead.
 */
export type StreamOutcome =
  | { kind: 'done'; analysis: UploadAnalysis }
  | { kind: 'fallback'; reason: 'slow' | 'busy' | 'aborted' | 'failed'; error?: unknown };

/** What an upload's task makes after its answer; each null when it was not made (or not here). */
export type UploadLater = {
  /** A big model's coarse view mesh. */
  coarse: Promise<ViewMesh | null>;
  /** A big model's preview (a small one's comes with the answer). */
  preview: Promise<{ png: Uint8Array | null; previewError: string | null } | null>;
  view: Promise<UploadViewResult>;
  /**
   * Tells the task the upload has answered ('go': make the extras now) or failed ('stop': make none). It
   * waits for this (at most 2 s), so that its work does not slow the answer down.
   */
  proceed(word: UploadTurn): void;
};

export type UploadAnalysis = {
  answer: AnalyzeResult;
  /** null when the pool makes no extras after the answer (a refused model, or viewAfterAnswer false). */
  later: UploadLater | null;
};

export type AnalysisPool = {
  /** Analyses a model for `client` (its address bucket): threads are shared out fairly between clients. */
  analyze(task: AnalyzeTask, client?: string): Promise<AnalyzeResult>;
  /**
   * Analyses an upload: resolves with the answer as soon as the analysis is done; the same task then makes
   * the model's view meshes (and a big model's preview), still holding its thread (and its client's turn),
   * each under the same time limit as the analysis, counted anew from the answer. While another model waits
   * for its analysis, the views are left (`deferred`) to be made when first asked for: a price never waits
   * behind another model's view.
   */
  upload(task: AnalyzeTask, client?: string): Promise<UploadAnalysis>;
  /**
   * Starts following an upload as it streams into `task.path` (for a 3MF, its model parts: early-parts.ts),
   * if a thread is free right now and nobody is waiting for one (fair-queue.ts); null otherwise: the file is
   * analysed once received.
   * `expectedSize` is the request's length (at most the upload limit).
   */
  stream?(task: AnalyzeTask, client: string, expectedSize: number): UploadStream | null;
  /** Makes the preview or view mesh of a stored model that has none yet, under the same limits. */
  extras(task: ExtrasTask, client?: string): Promise<ExtrasResult>;
  /**
   * An upload begins: when no thread is alive (none yet, or all ended after a minute idle), one is started
   * and made ready (the worker's warm()) while the upload's bytes arrive. Settles when it is (never fails).
   */
  warm?(): Promise<void>;
  /** Threads alive now. */
  threads?(): number;
  close(): Promise<void>;
};

export class AnalysisLimitError extends Error {
  constructor(readonly reason: 'timeout' | 'memory' | 'busy') {
    super(reason);
  }
}

export const DEFAULT_ANALYSIS_TIMEOUT_MS = 20_000;

/** A followed upload slower than this (bytes a second, over each tick) gives its thread back. */
export const STREAM_MIN_BYTES_PER_SECOND = 4 * 1024 * 1024;
const STREAM_TICK_MS = 100;
/** The pace is measured over this many ticks. */
const STREAM_WINDOW_TICKS = 5;

function isOutOfMemory(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test(String(e?.message));
}

/**
 * The worker's entry beside this module: compiled JavaScript (dist/, `npm start`) loads the compiled
 * worker directly; TypeScript run through tsx (`npm run serve`, tests) loads analyze-worker.mjs, which
 * registers tsx in the worker thread first.
 */
export function workerFile(moduleUrl: string): string {
  const compiled = new URL(moduleUrl).pathname.endsWith('.js');
  return new URL(compiled ? './analyze-worker.js' : './analyze-worker.mjs', moduleUrl).href;
}

export function createAnalysisPool(options: AnalysisPoolOptions = {}): AnalysisPool {
  const cpus = os.availableParallelism();
  const maxThreads = options.maxThreads ?? Math.min(4, Math.max(1, cpus - 1));
  const timeoutMs = options.timeoutMs ?? DEFAULT_ANALYSIS_TIMEOUT_MS;
  const pool = new Piscina<AnalyzeTask | ExtrasTask | null, AnalyzeResult | ExtrasResult | null>({
    filename: options.workerFile ?? workerFile(import.meta.url),
    minThreads: 0,
    maxThreads,
    // Threads live on for a while after a model, so the next one does not pay for a start-up.
    idleTimeout: 60_000,
    maxQueue: maxThreads * 16,
    resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 256, stackSizeMb: 4 },
  });
  // A thread that fails outside a task (it could not start): the task's own promise carries the error;
  // without a listener the pool's 'error' event would end the process.
  pool.on('error', () => {});
  // Models wait here, not in piscina's queue: a model's time limit must not run while it waits, and one
  // client must not keep every thread while others wait.
  const queue = new FairQueue(maxThreads, options.maxWaiting ?? maxThreads * 16);
  /** A warm-up under way (warm()). */
  let warming: Promise<void> | null = null;
  /**
   * Runs `task` (the worker's `name` export) when `client`'s turn comes, within the time limit; `restart`
   * (given to started) starts the limit anew. `held`: a thread taken already (tryAcquire), whose limit
   * starts only at the first restart (a followed upload's, when its last byte lands or it is given up).
   */
  async function run(
    task: AnalyzeTask | ExtrasTask,
    name: string,
    client: string,
    started: (restart: () => void) => void = () => {},
    transferList: TransferList = [],
    held?: () => void,
  ) {
    const kind = name === 'buildExtras' ? 'extras' : 'analysis';
    let release: () => void;
    try {
      release = held ?? (await queue.acquire(client, kind));
    } catch (err) {
      if (err instanceof QueueFullError) throw new AnalysisLimitError('busy');
      throw err;
    }
    // After a warm-up under way: its thread is the one made ready (asked for meanwhile, piscina would start
    // another, cold, for this task).
    if (warming) await warming;
    const controller = new AbortController();
    // An extras job reads its model again (the analysis, within its limit), then makes its preview or view:
    // twice the limit, as an upload's task has for the same work (its limit counted anew at the answer).
    const limitMs = kind === 'extras' ? 2 * timeoutMs : timeoutMs;
    let timer = held ? undefined : setTimeout(() => controller.abort(), limitMs);
    started(() => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), limitMs);
    });
    try {
      return await pool.run(task, { signal: controller.signal, name, transferList });
    } catch (err) {
      if (controller.signal.aborted) throw new AnalysisLimitError('timeout');
      if (isOutOfMemory(err)) throw new AnalysisLimitError('memory');
      if (/queue is at limit/i.test(String((err as Error)?.message))) throw new AnalysisLimitError('busy');
      throw err;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  /** An upload's task with a port: the answer and the extras arrive through it, the view mesh last. */
  function upload(
    task: AnalyzeTask,
    client: string,
    held?: { release: () => void; started: (restart: () => void) => void },
  ): Promise<UploadAnalysis> {
    const { port1, port2 } = new MessageChannel();
    const answer = settable<AnalyzeResult>();
    const coarse = settable<ViewMesh | null>();
    const preview = settable<{ png: Uint8Array | null; previewError: string | null } | null>();
    let restart = () => {};
    let received = 0;
    let drained = () => {};
    port1.on('message', (message: UploadMessage) => {
      received++;
      if (message.kind === 'answer') {
        // The analysis is done: what follows gets a time limit of its own.
        restart();
        answer.resolve(message.result);
      } else if (message.kind === 'coarse') coarse.resolve(message.view);
      else preview.resolve({ png: message.png, previewError: message.previewError });
      drained();
    });
    /** Whatever was not posted was not made: a small model's, a refused one's, or a task cut short. */
    const finish = () => {
      coarse.resolve(null);
      preview.resolve(null);
      answer.reject(new Error('The analysis ended without an answer.'));
      port1.close();
    };
    const transfer = [port2] as unknown as TransferList;
    const started = (r: () => void) => {
      restart = r;
      held?.started(r);
    };
    const waiting = queue.analysesWaiting.buffer as SharedArrayBuffer;
    const end = run(
      { ...task, port: port2, waiting },
      'default',
      client,
      started,
      transfer,
      held?.release,
    ).then((result) => result as unknown as UploadTaskEnd);
    const view = end.then(
      async ({ posted, view }) => {
        // The port's messages and the task's result come by different channels: read every message first.
        await new Promise<void>((resolve) => {
          drained = () => received >= posted && resolve();
          drained();
        });
        finish();
        return view;
      },
      (err: unknown) => {
        answer.reject(err);
        finish();
        return null;
      },
    );
    const proceed = (word: UploadTurn) => {
      try {
        port1.postMessage(word);
      } catch {
        // The task has ended: nothing is waiting for the word.
      }
    };
    return answer.promise.then((result) => ({
      answer: result,
      later: result.ok ? { coarse: coarse.promise, preview: preview.promise, view, proceed } : null,
    }));
  }

  const minRate = options.streamMinBytesPerSecond ?? STREAM_MIN_BYTES_PER_SECOND;

  function stream(task: AnalyzeTask, client: string, expectedSize: number): UploadStream | null {
    const release = queue.tryAcquire(client);
    if (!release) return null;
    const writer = new FollowWriter();
    // The time limit's start, once the task has one (it is handed over as the task starts).
    let restartLimit: (() => void) | null = null;
    let limitWanted = false;
    const limit = () => {
      limitWanted = true;
      restartLimit?.();
    };
    let stopped: 'slow' | 'busy' | 'aborted' | null = null;
    let landed = 0;
    let checked = 0;
    const began = performance.now();
    let ticks = 0;
    // Looked at every tick: a model waiting for its analysis (it goes first: the fair queue decides, and this
    // upload joins it once received), or, every window, a client too slow or too long in all, and the
    // thread goes back.
    const guard = setInterval(() => {
      if (queue.queuedAnalyses > 0) return stop('busy');
      if (++ticks % STREAM_WINDOW_TICKS !== 0) return;
      const tooSlow = landed - checked < (minRate * STREAM_TICK_MS * STREAM_WINDOW_TICKS) / 1000;
      checked = landed;
      if (tooSlow || performance.now() - began > timeoutMs) stop('slow');
    }, STREAM_TICK_MS);
    guard.unref();
    function stop(reason: 'slow' | 'busy' | 'aborted') {
      clearInterval(guard);
      if (writer.state !== 'streaming') return;
      stopped = reason;
      writer.abort();
      // A worker busy in a chunk sees the word only after it: the time limit bounds that.
      limit();
    }
    const result: Promise<StreamOutcome> = upload(
      { ...task, follow: { progress: writer.progress.buffer as SharedArrayBuffer, expectedSize } },
      client,
      {
        release,
        started: (restart) => {
          restartLimit = restart;
          if (limitWanted) restart();
        },
      },
    ).then(
      (analysis): StreamOutcome => ({ kind: 'done', analysis }),
      (error: unknown): StreamOutcome => {
        if (stopped) return { kind: 'fallback', reason: stopped };
        if (error instanceof AnalysisLimitError) throw error;
        return { kind: 'fallback', reason: 'failed', error };
      },
    );
    result.catch(() => {}); // an upload that failed meanwhile never reads it
    return {
      written: (bytes) => {
        landed = bytes;
        writer.written(bytes);
      },
      end: (size) => {
        clearInterval(guard);
        if (writer.state !== 'streaming') return;
        writer.end(size);
        limit();
      },
      abort: () => stop('aborted'),
      result,
    };
  }

  /** AnalysisPool.warm. */
  function warm(): Promise<void> {
    if (warming) return warming;
    if (pool.threads.length > 0) return Promise.resolve();
    // Outside the fair queue: it takes a thread for a moment, and only when none is alive.
    // A thread that cannot start fails no task: the warm-up gives up after the analysis time limit.
    warming = pool
      .run(null, { name: 'warm', signal: AbortSignal.timeout(timeoutMs) })
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        warming = null;
      });
    return warming;
  }

  const lazyView = options.viewAfterAnswer === false || process.env.SHOP_BENCH_LAZY_VIEW === '1';
  const warmOnUpload = options.warmOnUpload !== false && process.env.SHOP_BENCH_NO_WARM !== '1';
  return {
    analyze: async (task, client = '') => (await run(task, 'default', client)) as AnalyzeResult,
    upload: async (task, client = '') =>
      lazyView
        ? { answer: (await run(task, 'default', client)) as AnalyzeResult, later: null }
        : upload(task, client),
    ...(lazyView ? {} : { stream }),
    extras: async (task, client = '') => (await run(task, 'buildExtras', client)) as ExtrasResult,
    ...(warmOnUpload ? { warm } : {}),
    threads: () => pool.threads.length,
    close: () => pool.destroy(),
  };
}

/** A promise with its resolve and reject at hand; settling it again does nothing. */
function settable<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody waits for (the answer, when the task failed after it) is not an unhandled one.
  promise.catch(() => {});
  return { promise, resolve, reject };
}
