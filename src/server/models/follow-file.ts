// An upload's temp file read while it is still being written (upload-stream.ts): the main thread writes
// the file and tells, through a small shared array, how many bytes have landed and whether the upload
// ended or was given up; the analysis worker waits on that array (Atomics.wait, no event loop needed, or
// Atomics.waitAsync while a 3MF's zlib streams run) and reads the file's bytes from the page cache as they
// come. Nothing is copied between the threads.

/** Slots of the shared Int32Array. */
const WRITTEN = 0;
const STATE = 1;
/** Bumped at every change, so that a waiter never misses one. */
const CHANGES = 2;
export const FOLLOW_SLOTS = 3;

const STREAMING = 0;
const ENDED = 1;
const ABORTED = 2;

/** The worker's wait between looks when nothing is told (a wake-up is never lost; this bounds a stuck one). */
const WAIT_MS = 100;

/** Atomics.waitAsync (Node 16 and later; typed from ES2024, past this project's ES2023 lib). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync.bind(Atomics);

/** Thrown in the worker when the main thread gave the file up (the upload failed, or came too slowly). */
export class FollowAborted extends Error {
  constructor() {
    super('the upload was given up while its analysis followed it');
  }
}

/** The main thread's side: tells the worker what landed. */
export class FollowWriter {
  readonly progress: Int32Array;
  constructor() {
    this.progress = new Int32Array(new SharedArrayBuffer(FOLLOW_SLOTS * 4));
  }

  private bump() {
    Atomics.add(this.progress, CHANGES, 1);
    Atomics.notify(this.progress, CHANGES);
  }

  get state(): 'streaming' | 'ended' | 'aborted' {
    const s = Atomics.load(this.progress, STATE);
    return s === STREAMING ? 'streaming' : s === ENDED ? 'ended' : 'aborted';
  }

  written(bytes: number): void {
    if (Atomics.load(this.progress, STATE) !== STREAMING) return;
    Atomics.store(this.progress, WRITTEN, bytes);
    this.bump();
  }

  /** The whole file is there: its size. */
  end(size: number): void {
    if (Atomics.load(this.progress, STATE) !== STREAMING) return;
    Atomics.store(this.progress, WRITTEN, size);
    Atomics.store(this.progress, STATE, ENDED);
    this.bump();
  }

  abort(): void {
    if (Atomics.load(this.progress, STATE) !== STREAMING) return;
    Atomics.store(this.progress, STATE, ABORTED);
    this.bump();
  }
}

/** The worker's side: waits for bytes of the growing file and reads them. */
export class FollowReader {
  private readonly progress: Int32Array;
  /** Milliseconds spent waiting for bytes (not analysing). */
  waitedMs = 0;
  /** When this side first saw that the upload had ended (performance.now()), null before. */
  endSeenAt: number | null = null;
  constructor(progress: Int32Array | SharedArrayBuffer) {
    this.progress = progress instanceof Int32Array ? progress : new Int32Array(progress);
  }

  /** Whether the upload has ended (then written() is the file's size). */
  get ended(): boolean {
    return Atomics.load(this.progress, STATE) === ENDED;
  }

  /**
   * Waits until at least `want` bytes are in the file or the upload ended; the bytes there now.
   * Throws FollowAborted when the main thread gave the file up. spare: work to do in slices instead of
   * waiting, while it says some is left (not counted as waiting).
   */
  waitFor(want: number, spare?: () => boolean): number {
    let started = performance.now();
    try {
      for (;;) {
        const changes = Atomics.load(this.progress, CHANGES);
        const written = this.look(want);
        if (written !== null) return written;
        if (spare) {
          this.waitedMs += performance.now() - started;
          const more = spare();
          started = performance.now();
          if (more) continue;
        }
        Atomics.wait(this.progress, CHANGES, changes, WAIT_MS);
      }
    } finally {
      this.waitedMs += performance.now() - started;
    }
  }

  /**
   * waitFor without blocking the thread, so that its event loop runs meanwhile (a 3MF's zlib streams,
   * early-parts.ts).
   */
  async waitForAsync(want: number): Promise<number> {
    const started = performance.now();
    try {
      for (;;) {
        const changes = Atomics.load(this.progress, CHANGES);
        const written = this.look(want);
        if (written !== null) return written;
        const wait = waitAsync(this.progress, CHANGES, changes, WAIT_MS);
        if (!wait.async) continue;
        // A pending waitAsync does not keep the event loop alive by itself (nodejs/node#44729).
        const alive = setTimeout(() => {}, WAIT_MS);
        try {
          await wait.value;
        } finally {
          clearTimeout(alive);
        }
      }
    } finally {
      this.waitedMs += performance.now() - started;
    }
  }

  /** Whether the upload has ended; throws FollowAborted when it was given up. */
  endedOrThrow(): boolean {
    return this.look(Number.POSITIVE_INFINITY) !== null;
  }

  /** The bytes there when at least want are, or the upload ended; else null. */
  private look(want: number): number | null {
    const state = Atomics.load(this.progress, STATE);
    if (state === ABORTED) throw new FollowAborted();
    const written = Atomics.load(this.progress, WRITTEN);
    if (state === ENDED) this.endSeenAt ??= performance.now();
    return written >= want || state === ENDED ? written : null;
  }

  /** Waits for the end of the upload; the file's size. */
  waitForEnd(): number {
    return this.waitFor(Number.POSITIVE_INFINITY);
  }
}
