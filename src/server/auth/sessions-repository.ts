import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';

// Sessions are keyed by the SHA-256 hash of the cookie value; the value itself is never stored.

export async function insertSession(
  db: Db,
  s: { tokenHash: string; userId: number; now: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values({
    tokenHash: s.tokenHash,
    userId: s.userId,
    createdAt: s.now,
    lastSeenAt: s.now,
    expiresAt: s.expiresAt,
  });
}

/** The session and its user (current role and verification, read fresh on every request). */
export async function findSessionWithUser(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      tokenHash: sessions.tokenHash,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      userId: users.id,
      username: users.username,
      email: users.email,
      isAdmin: users.isAdmin,
      emailVerifiedAt: users.emailVerifiedAt,
      disabledAt: users.disabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function touchSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends every session of a user (password reset, account disabled); returns how many there were. */
export async function deleteUserSessions(db: Db, userId: number): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ tokenHash: sessions.tokenHash });
  return ended.length;
}
