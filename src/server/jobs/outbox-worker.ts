import type { FastifyBaseLogger } from 'fastify';
import { SESSION_IDLE_MS } from '../auth/session-service.ts';
import type { AppContext } from '../context.ts';
import type { Mailer } from '../mail/mailer.ts';
import { maskEmail } from '../mail/mailer.ts';
import { purgeExpiredRows } from './housekeeping.ts';
import { claimDueMails, markFailed, markSent } from './outbox-repository.ts';

const BATCH = 10;
/** How long a claimed mail stays reserved for its worker: far longer than one SMTP send may take. */
const LEASE_MS = 5 * 60_000;
const POLL_MS = 1000;
const HOUSEKEEPING_MS = 3600_000;

export type DrainResult = { sent: number; failed: number };

/**
 * Sends every mail that is due now, one batch after another, and records each outcome. A failure (SMTP
 * down) never throws: the mail stays queued with a backoff. Tests call it to deliver mail on demand.
 */
export async function drainOutbox(
  ctx: Pick<AppContext, 'db' | 'now'>,
  mailer: Mailer,
  log?: FastifyBaseLogger,
): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, failed: 0 };
  for (;;) {
    const rows = await claimDueMails(ctx.db, ctx.now(), BATCH, LEASE_MS);
    if (rows.length === 0) return result;
    for (const row of rows) {
      try {
        await mailer.send(row.payload, row.id);
        await markSent(ctx.db, row.id, ctx.now());
        result.sent++;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        const outcome = await markFailed(ctx.db, row, ctx.now(), reason);
        result.failed++;
        const where = { mailId: row.id, to: maskEmail(row.payload.to), attempts: outcome.attempts, reason };
        if (outcome.dead) log?.error(where, 'mail given up after repeated failures');
        else
          log?.warn({ ...where, retryAt: outcome.nextAttemptAt.toISOString() }, 'mail not sent, will retry');
      }
    }
  }
}

/**
 * The background sender: polls the outbox every second and right after a poke (a commit that queued
 * mail), one drain at a time. It runs only after `start` with `poll: true`; with `poll: false` (tests) mail
 * goes out when the test calls `drain()`.
 */
export class OutboxWorker {
  private ctx: AppContext | undefined;
  private log: FastifyBaseLogger | undefined;
  private polling = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastHousekeeping = 0;

  constructor(readonly mailer: Mailer) {}

  start(ctx: AppContext, log: FastifyBaseLogger, options: { poll: boolean }): void {
    this.ctx = ctx;
    this.log = log;
    this.polling = options.poll;
    if (this.polling) this.schedule(0);
  }

  /** Asks for a drain now (after a commit that queued mail). */
  poke(): void {
    if (!this.polling || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Sends everything due now and waits for it (tests, the CLI). */
  async drain(): Promise<DrainResult> {
    if (!this.ctx) throw new Error('The outbox worker has not been started.');
    await this.running;
    return drainOutbox(this.ctx, this.mailer, this.log);
  }

  /** Stops polling and waits for the current drain to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.mailer.close();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    const ctx = this.ctx;
    if (!ctx || this.stopped || this.running) return;
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await drainOutbox(ctx, this.mailer, this.log);
          const now = ctx.now().getTime();
          if (now - this.lastHousekeeping >= HOUSEKEEPING_MS) {
            this.lastHousekeeping = now;
            await purgeExpiredRows(ctx.db, ctx.now(), SESSION_IDLE_MS);
          }
        } catch (err) {
          // The database itself failed (e.g. restarting): try again on the next poll.
          this.log?.error({ err }, 'outbox worker failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
      if (!this.stopped) this.schedule(POLL_MS);
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's outbox worker: `await app.outbox.drain()` sends every due mail now (tests). */
    outbox: OutboxWorker;
  }
}
