import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import { verificationMail } from '../mail/templates.ts';
import { consumeEmailToken, countEmailTokensSince, issueEmailToken } from './email-tokens-repository.ts';
import { hashToken, isWellFormedToken } from './tokens.ts';
import { findUserByLogin, markEmailVerified, withLockedUser } from './users-repository.ts';

export const VERIFY_TOKEN_TTL_MS = 24 * 3600_000;
/** Verification mails per account per hour (the registration mail counts). */
export const VERIFY_MAILS_PER_HOUR = 3;

/** The link in the verification mail: always from PUBLIC_URL, never from the request. */
export function verificationLink(ctx: Pick<AppContext, 'config'>, token: string): string {
  return `${ctx.config.publicUrl}/api/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Issues a verification token (retiring older ones) and queues its mail, inside the caller's transaction.
 */
export async function issueVerification(
  ctx: Pick<AppContext, 'config' | 'now'>,
  tx: Db,
  user: Pick<User, 'id' | 'username' | 'email'>,
): Promise<void> {
  const now = ctx.now();
  const token = await issueEmailToken(tx, {
    userId: user.id,
    purpose: 'verify',
    ttlMs: VERIFY_TOKEN_TTL_MS,
    now,
  });
  const brand = { shopName: ctx.config.shopName, publicUrl: ctx.config.publicUrl };
  await enqueueMail(
    tx,
    verificationMail(brand, { to: user.email, username: user.username, link: verificationLink(ctx, token) }),
    { now },
  );
}

/** Uses a verification token: true when it was valid (the account is now verified), false otherwise. */
export async function verifyEmail(ctx: AppContext, token: unknown): Promise<boolean> {
  if (!isWellFormedToken(token)) return false;
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const userId = await consumeEmailToken(tx, hashToken(token), 'verify', now);
    if (userId === undefined) return false;
    await markEmailVerified(tx, userId, now);
    return true;
  });
}

/**
 * Sends a fresh verification mail when `login` names an unverified account that has not had too many this
 * hour; otherwise does nothing. The caller answers the same either way.
 */
export async function resendVerification(ctx: AppContext, login: string): Promise<void> {
  const found = await findUserByLogin(ctx.db, login);
  if (!found || found.emailVerifiedAt) return;
  const now = ctx.now();
  // Locked per account, so simultaneous requests cannot all pass the count (see withLockedUser).
  const sent = await withLockedUser(ctx.db, found.id, async (tx, user) => {
    if (user.emailVerifiedAt) return false;
    const recent = await countEmailTokensSince(tx, user.id, 'verify', new Date(now.getTime() - 3600_000));
    if (recent >= VERIFY_MAILS_PER_HOUR) return false;
    await issueVerification(ctx, tx, user);
    return true;
  });
  if (sent) ctx.outbox?.poke();
}
