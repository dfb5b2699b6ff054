import os from 'node:os';
import { Piscina } from 'piscina';
import type { AnalyzeResult, AnalyzeTask, ExtrasResult, ExtrasTask } from './analyze-worker.ts';
import { FairQueue, QueueFullError } from './fair-queue.ts';

// The worker threads that read models, with a memory cap per thread and a time limit per model
// (docs/security.md 30). A model past either limit is refused; the thread is replaced, the server keeps going.

export type AnalysisPoolOptions = {
  /** Threads that may analyse at once (default: CPUs - 1, at least 1, at most 4). */
  maxThreads?: number;
  /** Per model, from the moment its analysis starts (not while it waits for a thread). */
  timeoutMs?: number;
  /** Models that may wait for a thread; past that, uploads are refused at once (503). Default 16 a thread. */
  maxWaiting?: number;
  /** V8 old generation of each worker. */
  maxOldGenerationSizeMb?: number;
};

export type AnalysisPool = {
  /** Analyses a model for `client` (its address bucket): threads are shared out fairly between clients. */
  analyze(task: AnalyzeTask, client?: string): Promise<AnalyzeResult>;
  /** Makes the preview or view mesh of a stored model that has none yet, under the same limits. */
  extras(task: ExtrasTask, client?: string): Promise<ExtrasResult>;
  close(): Promise<void>;
};

export class AnalysisLimitError extends Error {
  constructor(readonly reason: 'timeout' | 'memory' | 'busy') {
    super(reason);
  }
}

export const DEFAULT_ANALYSIS_TIMEOUT_MS = 20_000;

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
  const pool = new Piscina<AnalyzeTask | ExtrasTask, AnalyzeResult | ExtrasResult>({
    filename: workerFile(import.meta.url),
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
  /** Runs `task` (the worker's `name` export) when `client`'s turn comes, within the time limit. */
  async function run(task: AnalyzeTask | ExtrasTask, name: string, client: string) {
    let release: () => void;
    try {
      release = await queue.acquire(client);
    } catch (err) {
      if (err instanceof QueueFullError) throw new AnalysisLimitError('busy');
      throw err;
    }
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await pool.run(task, { signal, name });
    } catch (err) {
      if (signal.aborted) throw new AnalysisLimitError('timeout');
      if (isOutOfMemory(err)) throw new AnalysisLimitError('memory');
      if (/queue is at limit/i.test(String((err as Error)?.message))) throw new AnalysisLimitError('busy');
      throw err;
    } finally {
      release();
    }
  }
  return {
    analyze: async (task, client = '') => (await run(task, 'default', client)) as AnalyzeResult,
    extras: async (task, client = '') => (await run(task, 'buildExtras', client)) as ExtrasResult,
    close: () => pool.destroy(),
  };
}
