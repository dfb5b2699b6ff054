import { createHash } from 'node:crypto';

// The failed-login throttle (docs/security.md 6): after `max` failures within `windowMs` in one bucket,
// further attempts in it get 429 until the oldest failure leaves the window. Never a permanent lockout,
// and no bucket a stranger can fill for the owner (LoginThrottle below). The AttemptLimiter interface lets
// a shared store (Redis) replace the in-process one for several instances.

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

/**
 * The login name as the throttle knows it: trimmed, lower-cased (usernames and emails are
 * case-insensitive) and hashed, so that neither the process nor Redis holds the names people typed.
 */
export function loginNameKey(login: string): string {
  return createHash('sha256').update(login.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/** Who is attempting: the client's address bucket, and the nonce of its device cookie for the account. */
export type LoginClient = { bucket: string; trustedDevice: string | null };

type Taken = { limiter: AttemptLimiter; key: string; onSuccess: 'reset' | 'forgive' };

/**
 * The counts an attempt took, to settle once its outcome is known. `stepUp` when the name's limit for
 * clients without a device cookie is full: the password is still checked, but it logs nobody in here (a
 * right one gets a sign-in link by mail, login-service.ts); `waitMs` is when the name's limit frees.
 */
export type LoginTicket = {
  readonly taken: readonly Taken[];
  readonly at: Date;
  readonly stepUp?: { readonly waitMs: number };
};

/**
 * The failed-login throttle (docs/security.md 6, ASVS 6.3.1) without a lockout switch for strangers. Counts are
 * kept per login name as typed, never per account: a username and its email have counters of their own,
 * so throttling one tells nothing about the other, and an unknown name behaves exactly like a known one.
 *
 * - A client without a device cookie for the account: `perClient` failures per (address bucket, name),
 *   then a 429. All such clients together have `perName` failures per name (the distributed guesser's
 *   limit); past it an attempt is a step-up (LoginTicket): never a login, whatever the password, and
 *   answered alike whatever it was, so guessing on goes on blind. One address can never fill `perName` alone.
 * - A browser that logged in to the account before (a device cookie, device-cookie.ts): only its own
 *   `perClient` count, so nobody else's failures lock it out, and a stolen cookie still meets a limit.
 */
export class LoginThrottle {
  constructor(
    private readonly perClient: AttemptLimiter,
    private readonly perName: AttemptLimiter,
  ) {}

  /** Counts an attempt before the password is checked: a ticket, or the milliseconds to wait. */
  async begin(login: string, client: LoginClient, at: Date): Promise<LoginTicket | { waitMs: number }> {
    const name = loginNameKey(login);
    const own: Taken = client.trustedDevice
      ? { limiter: this.perClient, key: `device:${client.trustedDevice}`, onSuccess: 'reset' }
      : { limiter: this.perClient, key: `client:${client.bucket}:${name}`, onSuccess: 'reset' };
    const ownWaitMs = await own.limiter.take(own.key, at);
    if (ownWaitMs > 0) return { waitMs: ownWaitMs };
    if (client.trustedDevice) return { taken: [own], at };
    // A success is no failure, but it does not clear the other clients' failures either.
    const shared: Taken = { limiter: this.perName, key: `name:${name}`, onSuccess: 'forgive' };
    const sharedWaitMs = await shared.limiter.take(shared.key, at);
    // Full: this client's own count still holds (taken above), the name's is not counted further.
    if (sharedWaitMs > 0) return { taken: [own], at, stepUp: { waitMs: sharedWaitMs } };
    return { taken: [own, shared], at };
  }

  /** The right password: this client's failures are forgotten. */
  async succeeded(ticket: LoginTicket): Promise<void> {
    for (const t of ticket.taken) {
      if (t.onSuccess === 'reset') await t.limiter.reset(t.key);
      else await t.limiter.forgive(t.key, ticket.at);
    }
  }

  /** Not a failure (the right password of an unverified account), but earlier failures stay. */
  async forgive(ticket: LoginTicket): Promise<void> {
    for (const t of ticket.taken) await t.limiter.forgive(t.key, ticket.at);
  }

  /**
   * After a password reset: whoever proved access to the inbox may log in at once from this client, even
   * after failed attempts, by username or email.
   */
  async clear(names: string[], bucket: string): Promise<void> {
    for (const login of names) {
      const name = loginNameKey(login);
      await this.perClient.reset(`client:${bucket}:${name}`);
      await this.perName.reset(`name:${name}`);
    }
  }
}
