// The per-account failed-login throttle (SECURITY.md 6): after `max` failures within `windowMs` for one
// username, further attempts for it get 429 until the oldest failure leaves the window. Never a permanent
// lockout. The interface lets a shared store (PostgreSQL, Redis) replace the in-process one for several
// instances.

export interface AttemptLimiter {
  /**
   * Checks and counts an attempt in one atomic step: 0 when `key` may try now (the attempt then counts as
   * a failure unless forgiven or reset), or the milliseconds until it may (nothing counted). One step, not
   * "check, verify the password, then record": simultaneous guesses would all pass a check made before any
   * of them had failed. A shared store must keep it atomic too (one Redis script, one SQL statement).
   */
  take(key: string, now: Date): Promise<number>;
  /** Un-counts the attempt taken at `now`: it turned out not to be a failure. */
  forgive(key: string, now: Date): Promise<void>;
  /** Forgets a key's failures (a successful login, a password reset). */
  reset(key: string): Promise<void>;
}

export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly opts: { max: number; windowMs: number; maxKeys?: number }) {}

  private recent(key: string, now: number): number[] {
    const since = now - this.opts.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  // No await between the check and the push: atomic within the process.
  async take(key: string, now: Date): Promise<number> {
    const at = now.getTime();
    const list = this.recent(key, at);
    if (list.length >= this.opts.max) {
      const oldest = list[list.length - this.opts.max] ?? at;
      return Math.max(1, oldest + this.opts.windowMs - at);
    }
    list.push(at);
    // Most recently failed last.
    this.failures.delete(key);
    this.failures.set(key, list);
    // Bounded memory: the least recently failed keys go first.
    const maxKeys = this.opts.maxKeys ?? 10_000;
    while (this.failures.size > maxKeys) {
      const first = this.failures.keys().next().value;
      if (first === undefined) break;
      this.failures.delete(first);
    }
    return 0;
  }

  async forgive(key: string, now: Date): Promise<void> {
    const list = this.failures.get(key);
    const i = list?.lastIndexOf(now.getTime()) ?? -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) this.failures.delete(key);
  }

  async reset(key: string): Promise<void> {
    this.failures.delete(key);
  }
}

/** The bucket of a known account. */
export function accountThrottleKey(userId: number): string {
  return `user:${userId}`;
}

/** The bucket of a name no account has. Usernames and emails are case-insensitive, so is the throttle. */
export function throttleKey(login: string): string {
  return login.trim().toLowerCase();
}
