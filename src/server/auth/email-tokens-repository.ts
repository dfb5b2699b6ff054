import { and, count, eq, gt, gte, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailTokens } from '../db/schema.ts';
import { newToken } from './tokens.ts';

// Verification, reset and sign-in link tokens: hashed, single use, with an expiry. Used rows are kept (with
// used_at) so the per-account mail caps can count them; housekeeping purges old rows.

export type TokenPurpose = 'verify' | 'reset' | 'sign-in';

export async function insertEmailToken(
  db: Db,
  t: { tokenHash: string; userId: number; purpose: TokenPurpose; now: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(emailTokens).values({
    tokenHash: t.tokenHash,
    userId: t.userId,
    purpose: t.purpose,
    expiresAt: t.expiresAt,
    createdAt: t.now,
  });
}

/**
 * Issues a fresh token for `purpose`, retiring the user's older ones so only the newest link works.
 * Returns the raw token, which goes into the mail and nowhere else.
 */
export async function issueEmailToken(
  db: Db,
  t: { userId: number; purpose: TokenPurpose; ttlMs: number; now: Date },
): Promise<string> {
  const { token, hash } = newToken();
  await retireEmailTokens(db, t.userId, t.purpose, t.now);
  await insertEmailToken(db, {
    tokenHash: hash,
    userId: t.userId,
    purpose: t.purpose,
    now: t.now,
    expiresAt: new Date(t.now.getTime() + t.ttlMs),
  });
  return token;
}

/**
 * Uses a token exactly once: marks it used when it exists, has this purpose, is unused and unexpired, and
 * returns its user id; otherwise undefined. One UPDATE, so two concurrent uses cannot both succeed.
 */
export async function consumeEmailToken(
  db: Db,
  tokenHash: string,
  purpose: TokenPurpose,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, tokenHash),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailTokens.userId });
  return row?.userId;
}

/** Retires a user's unused tokens of one purpose (a newer mail replaces older links). */
export async function retireEmailTokens(db: Db, userId: number, purpose: TokenPurpose, now: Date) {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

/** How many tokens of a purpose were issued to a user since a time (the per-account mail cap). */
export async function countEmailTokensSince(
  db: Db,
  userId: number,
  purpose: TokenPurpose,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        gte(emailTokens.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}
