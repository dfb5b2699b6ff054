import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailTokens, outbox, sessions } from '../db/schema.ts';

// Rows nobody will ever read again: expired sessions, long-dead tokens and old sent mail.

const DAY_MS = 24 * 3600_000;

export async function purgeExpiredRows(db: Db, now: Date, sessionIdleMs: number): Promise<void> {
  const at = (ms: number) => new Date(now.getTime() - ms);
  await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, at(sessionIdleMs))));
  // Kept a week past expiry: the per-account mail caps count recent tokens.
  await db.delete(emailTokens).where(lt(emailTokens.expiresAt, at(7 * DAY_MS)));
  await db.delete(outbox).where(and(isNotNull(outbox.sentAt), lt(outbox.sentAt, at(30 * DAY_MS))));
}
