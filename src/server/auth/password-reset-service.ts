import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import { passwordChangedMail, passwordResetMail } from '../mail/templates.ts';
import { HttpError } from '../plugins/error-handler.ts';
import {
  consumeEmailToken,
  countEmailTokensSince,
  issueEmailToken,
  retireEmailTokens,
} from './email-tokens-repository.ts';
import { hashPassword } from './passwords.ts';
import { MSG } from './schemas.ts';
import { deleteUserSessions } from './sessions-repository.ts';
import { hashToken, isWellFormedToken } from './tokens.ts';
import {
  findUserByEmail,
  findUserById,
  markEmailVerified,
  updatePasswordHash,
  withLockedUser,
} from './users-repository.ts';

export const RESET_TOKEN_TTL_MS = 3600_000;
/** Reset mails per account per hour (docs/security.md 13). */
export const RESET_MAILS_PER_HOUR = 3;

/** The link in the reset mail: the client's /reset-password page, always from PUBLIC_URL. */
export function resetLink(ctx: Pick<AppContext, 'config'>, token: string): string {
  return `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Mails a reset link when an account has this email and has not had too many this hour; otherwise does
 * nothing. The caller answers the same either way.
 */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const found = await findUserByEmail(ctx.db, email);
  if (!found) return;
  const now = ctx.now();
  // Locked per account, so simultaneous requests cannot all pass the count (see withLockedUser).
  const sent = await withLockedUser(ctx.db, found.id, async (tx, user) => {
    const recent = await countEmailTokensSince(tx, user.id, 'reset', new Date(now.getTime() - 3600_000));
    if (recent >= RESET_MAILS_PER_HOUR) return false;
    const token = await issueEmailToken(tx, {
      userId: user.id,
      purpose: 'reset',
      ttlMs: RESET_TOKEN_TTL_MS,
      now,
    });
    const brand = { shopName: ctx.config.shopName, publicUrl: ctx.config.publicUrl };
    await enqueueMail(
      tx,
      passwordResetMail(brand, { to: user.email, username: user.username, link: resetLink(ctx, token) }),
      { now },
    );
    return true;
  });
  if (sent) ctx.outbox?.poke();
}

/**
 * Sets a new password with a reset token, in one transaction: the token is used up, every session of the
 * account ends (docs/security.md 12), the email counts as verified (the mail reached its owner) and a notice
 * mail is queued. Nobody is logged in by it. A bad, used or expired token is a 400.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; password: string },
): Promise<User> {
  if (!isWellFormedToken(input.token)) throw new HttpError(400, MSG.resetFailed);
  const passwordHash = await hashPassword(input.password);
  const user = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const userId = await consumeEmailToken(tx, hashToken(input.token), 'reset', now);
    if (userId === undefined) throw new HttpError(400, MSG.resetFailed);
    await updatePasswordHash(tx, userId, passwordHash, now);
    await markEmailVerified(tx, userId, now);
    await retireEmailTokens(tx, userId, 'reset', now);
    // A sign-in link mailed for the old password logs nobody in any more.
    await retireEmailTokens(tx, userId, 'sign-in', now);
    await deleteUserSessions(tx, userId);
    const found = await findUserById(tx, userId);
    if (!found) throw new HttpError(400, MSG.resetFailed);
    const brand = { shopName: ctx.config.shopName, publicUrl: ctx.config.publicUrl };
    await enqueueMail(tx, passwordChangedMail(brand, { to: found.email, username: found.username }), { now });
    return found;
  });
  ctx.outbox?.poke();
  return user;
}
