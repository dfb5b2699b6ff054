// Who analyses next (issue: one upload must not stall every other). The analysis threads are few, so
// waiting uploads are served by client in turn, not first come first served: a client whose model is being
// analysed waits while another client has one waiting, so one address sending many big models holds at most
// one thread while others wait. Prices come first: a waiting analysis goes before any waiting extras job (a
// stored model's preview or view mesh) unless that job has waited EXTRAS_PATIENCE_MS (a customer who opened
// the viewer is not kept waiting for ever by a stream of uploads), and the number of analyses waiting is
// published in shared memory, where an upload's task about to make its views looks, and leaves them for
// later if one waits (analyze-worker.ts). The waiting room is bounded: a full one refuses at once.

/** How long an extras job waits behind analyses at most before it goes first. */
export const EXTRAS_PATIENCE_MS = 10_000;

/** An analysis (a customer waits for its price) or an extras job (a preview or view mesh, made later). */
export type TaskKind = 'analysis' | 'extras';

export class QueueFullError extends Error {
  constructor() {
    super('the analysis queue is full');
  }
}

type Waiter = { client: string; start: () => void; since: number };

export class FairQueue {
  private readonly running = new Map<string, number>();
  private active = 0;
  /** Waiting clients by kind, each with its own FIFO of tasks. */
  private readonly waiting: Record<TaskKind, Map<string, Waiter[]>> = {
    analysis: new Map(),
    extras: new Map(),
  };
  private waitingCount = 0;
  /** [0]: analyses waiting now, for the worker threads to read (Atomics.load). */
  readonly analysesWaiting = new Int32Array(new SharedArrayBuffer(4));
  /** When each client with work here last got a thread: the one served longest ago goes first. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
    private readonly extrasPatienceMs = EXTRAS_PATIENCE_MS,
  ) {}

  /** Tasks waiting for a thread now. */
  get queued(): number {
    return this.waitingCount;
  }

  /** Analyses waiting for a thread now. */
  get queuedAnalyses(): number {
    return Atomics.load(this.analysesWaiting, 0);
  }

  /**
   * Waits for a thread for `client`'s task; the returned function gives it back (call it exactly once).
   * Throws QueueFullError at once when the waiting room is full.
   */
  acquire(client: string, kind: TaskKind = 'analysis'): Promise<() => void> {
    if (this.active < this.slots && this.waitingCount === 0) return Promise.resolve(this.take(client));
    if (this.waitingCount >= this.maxWaiting) return Promise.reject(new QueueFullError());
    return new Promise((resolve) => {
      const waiting = this.waiting[kind];
      const list = waiting.get(client) ?? [];
      list.push({ client, start: () => resolve(this.take(client)), since: performance.now() });
      waiting.set(client, list);
      this.waitingCount++;
      if (kind === 'analysis') Atomics.add(this.analysesWaiting, 0, 1);
      this.dispatch();
    });
  }

  /**
   * A thread for `client` now, or null when none is free or anyone is waiting: an upload's analysis that
   * follows the file as it streams in takes a thread only this way, never ahead of a waiting model.
   */
  tryAcquire(client: string): (() => void) | null {
    return this.active < this.slots && this.waitingCount === 0 ? this.take(client) : null;
  }

  private take(client: string): () => void {
    this.active++;
    this.lastServed.set(client, ++this.served);
    this.running.set(client, (this.running.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const left = (this.running.get(client) ?? 1) - 1;
      if (left === 0) this.running.delete(client);
      else this.running.set(client, left);
      if (left === 0 && !this.waiting.analysis.has(client) && !this.waiting.extras.has(client))
        this.lastServed.delete(client);
      this.dispatch();
    };
  }

  /**
   * Fills free threads: analyses before extras jobs (but one that waited its patience out goes first); within
   * each, clients with nothing running first, the one served longest ago first; then anyone.
   */
  private dispatch(): void {
    while (this.active < this.slots && this.waitingCount > 0) {
      const kind: TaskKind = this.waiting.analysis.size > 0 && !this.extrasOverdue() ? 'analysis' : 'extras';
      const waiting = this.waiting[kind];
      const chosen = this.pick(waiting, true) ?? this.pick(waiting, false);
      if (chosen === undefined) return;
      const list = waiting.get(chosen)!;
      const next = list.shift()!;
      if (list.length === 0) waiting.delete(chosen);
      this.waitingCount--;
      if (kind === 'analysis') Atomics.sub(this.analysesWaiting, 0, 1);
      next.start();
    }
  }

  /** Whether an extras job has waited longer than its patience (each client's first waited longest). */
  private extrasOverdue(): boolean {
    const due = performance.now() - this.extrasPatienceMs;
    for (const list of this.waiting.extras.values()) if (list[0]!.since <= due) return true;
    return false;
  }

  private pick(waiting: Map<string, Waiter[]>, idleOnly: boolean): string | undefined {
    let best: string | undefined;
    let bestServed = Infinity;
    for (const client of waiting.keys()) {
      if (idleOnly && this.running.has(client)) continue;
      const served = this.lastServed.get(client) ?? 0;
      if (served < bestServed) {
        best = client;
        bestServed = served;
      }
    }
    return best;
  }
}
