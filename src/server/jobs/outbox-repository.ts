import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type OutboxMail, outbox } from '../db/schema.ts';

// The durable outbox (docs/domain.md): a mail is a row written in the same transaction as its cause; the
// worker claims due rows, sends them and records the outcome.

export type OutboxRow = typeof outbox.$inferSelect;

/** Attempts before a mail is given up ('dead'): about 3.5 hours of retries. */
export const MAX_ATTEMPTS = 12;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 3600_000;

/**
 * Queues a mail. Call it with the transaction that makes the change the mail is about, so both happen or
 * neither; after the commit, `ctx.outbox?.poke()` sends it at once instead of on the next poll.
 */
export async function enqueueMail(db: Db, mail: OutboxMail, options: { now?: Date } = {}): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({
      kind: 'mail',
      payload: mail,
      ...(options.now ? { createdAt: options.now, nextAttemptAt: options.now } : {}),
    })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/**
 * Claims up to `limit` due mails for `leaseMs`: other workers (other instances) skip them, and a worker
 * that dies mid-send lets the lease run out so another one retries. `FOR UPDATE SKIP LOCKED` in one
 * UPDATE, on PGlite and PostgreSQL alike.
 */
export async function claimDueMails(db: Db, now: Date, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, 'mail'),
        eq(outbox.status, 'pending'),
        lte(outbox.nextAttemptAt, now),
        or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, now)),
      ),
    )
    .orderBy(outbox.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(outbox)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(outbox.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  // Once sent, the body is forgotten: it may hold a one-time link (a raw token) that must not sit in the
  // database. The recipient and subject stay for the record.
  await db
    .update(outbox)
    .set({
      status: 'sent',
      sentAt: now,
      lockedUntil: null,
      payload: sql`jsonb_set(jsonb_set(${outbox.payload}, '{text}', '"[sent]"'), '{html}', '"[sent]"')`,
    })
    .where(eq(outbox.id, id));
}

/** The wait before attempt `attempts + 1`: 10 s, 20 s, 40 s ... at most 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** Records a failed attempt: retried later with exponential backoff, or 'dead' after MAX_ATTEMPTS. */
export async function markFailed(
  db: Db,
  row: Pick<OutboxRow, 'id' | 'attempts'>,
  now: Date,
  error: string,
): Promise<{ attempts: number; dead: boolean; nextAttemptAt: Date }> {
  const attempts = row.attempts + 1;
  const dead = attempts >= MAX_ATTEMPTS;
  const nextAttemptAt = new Date(now.getTime() + retryDelayMs(attempts));
  await db
    .update(outbox)
    .set({
      attempts,
      status: dead ? 'dead' : 'pending',
      nextAttemptAt,
      lockedUntil: null,
      lastError: error.slice(0, 500),
    })
    .where(eq(outbox.id, row.id));
  return { attempts, dead, nextAttemptAt };
}
