// The per-account failed-login throttle (SECURITY.md 6): after `max` failures within `windowMs` for one
// username, further attempts for it get 429 until the oldest failure leaves the window. Never a permanent
// lockout. The interface lets a shared store (PostgreSQL, Redis) replace the in-process one for several
// instances.

export interface AttemptLimiter {
  /** Milliseconds until `key` may try again, or 0 when it may now. */
  blockedFor(key: string, now: Date): Promise<number>;
  recordFailure(key: string, now: Date): Promise<void>;
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

  async blockedFor(key: string, now: Date): Promise<number> {
    const list = this.recent(key, now.getTime());
    if (list.length < this.opts.max) return 0;
    const oldest = list[list.length - this.opts.max] ?? now.getTime();
    return Math.max(1, oldest + this.opts.windowMs - now.getTime());
  }

  async recordFailure(key: string, now: Date): Promise<void> {
    const list = this.recent(key, now.getTime());
    list.push(now.getTime());
    // Only the last `max` failures matter.
    this.failures.delete(key);
    this.failures.set(key, list.slice(-this.opts.max));
    // Bounded memory: the least recently failed keys go first.
    const maxKeys = this.opts.maxKeys ?? 10_000;
    while (this.failures.size > maxKeys) {
      const first = this.failures.keys().next().value;
      if (first === undefined) break;
      this.failures.delete(first);
    }
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
