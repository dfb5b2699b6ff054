import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { deleteSession, findSessionWithUser, insertSession, touchSession } from './sessions-repository.ts';
import { hashToken, isWellFormedToken, newToken } from './tokens.ts';

// Opaque session tokens (docs/domain.md): 256 random bits in the cookie, their SHA-256 in the database.

/** Absolute lifetime: a session ends 30 days after login whatever happens. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
/** Idle timeout: a session unused for 7 days ends. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** The logged-in user as routes see it; role and verification are read fresh on every request. */
export type SessionUser = {
  id: number;
  username: string;
  email: string;
  isAdmin: boolean;
  /** The session's key in the database (the hash, never the cookie value). */
  sessionHash: string;
};

export async function createSession(
  ctx: Pick<AppContext, 'db' | 'now'>,
  userId: number,
  db: Db = ctx.db,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_MS);
  await insertSession(db, { tokenHash: hash, userId, now, expiresAt });
  return { token, expiresAt };
}

/** The user of a session cookie value, or null (unknown, expired, idle too long: an ended session is deleted). */
export async function resolveSession(
  ctx: Pick<AppContext, 'db' | 'now'>,
  token: string | undefined,
): Promise<SessionUser | null> {
  if (!isWellFormedToken(token)) return null;
  const tokenHash = hashToken(token);
  const row = await findSessionWithUser(ctx.db, tokenHash);
  if (!row) return null;
  const now = ctx.now().getTime();
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + SESSION_IDLE_MS <= now) {
    await deleteSession(ctx.db, tokenHash);
    return null;
  }
  // Sessions are only made for verified accounts; this guards against any other path.
  if (!row.emailVerifiedAt) return null;
  // Disabling an account deletes its sessions; one a login racing the disable made ends here.
  if (row.disabledAt) {
    await deleteSession(ctx.db, tokenHash);
    return null;
  }
  if (now - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchSession(ctx.db, tokenHash, ctx.now());
  return {
    id: row.userId,
    username: row.username,
    email: row.email,
    isAdmin: row.isAdmin,
    sessionHash: tokenHash,
  };
}

/**
 * Whether a cookie value names a live session of an account whose email is not verified (any more):
 * such a session counts as logged out, but the routes that need a verified account say why (403).
 */
export async function isUnverifiedSession(
  ctx: Pick<AppContext, 'db' | 'now'>,
  token: string | undefined,
): Promise<boolean> {
  if (!isWellFormedToken(token)) return false;
  const row = await findSessionWithUser(ctx.db, hashToken(token));
  return (
    row !== undefined &&
    !row.emailVerifiedAt &&
    !row.disabledAt &&
    row.expiresAt.getTime() > ctx.now().getTime()
  );
}

/** Ends the session of a cookie value, if there is one. */
export async function endSession(ctx: Pick<AppContext, 'db'>, token: string | undefined): Promise<void> {
  if (isWellFormedToken(token)) await deleteSession(ctx.db, hashToken(token));
}
