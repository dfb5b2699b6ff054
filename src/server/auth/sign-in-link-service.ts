import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import { signInLinkMail } from '../mail/templates.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { consumeEmailToken, countEmailTokensSince, issueEmailToken } from './email-tokens-repository.ts';
import { MSG } from './schemas.ts';
import { hashToken, isWellFormedToken } from './tokens.ts';
import { findUserById, withLockedUser } from './users-repository.ts';

// The step-up's sign-in link (docs/security.md 6): while strangers' failed logins have used up a name's
// allowance, the right password from a browser without a device cookie logs nobody in; the account's
// inbox gets a one-time link instead, and opening it logs that browser in (and trusts it from then on).

export const SIGN_IN_TOKEN_TTL_MS = 15 * 60_000;
/** Sign-in link mails per account per hour: a guesser who found the password cannot flood the inbox. */
export const SIGN_IN_MAILS_PER_HOUR = 3;

/** The link in the mail: the client's /sign-in page, always from PUBLIC_URL. */
export function signInLink(ctx: Pick<AppContext, 'config'>, token: string): string {
  return `${ctx.config.publicUrl}/sign-in?token=${encodeURIComponent(token)}`;
}

/**
 * Mails a sign-in link (retiring older ones) unless the account has had SIGN_IN_MAILS_PER_HOUR this hour,
 * or is not verified or disabled (who may log in is what a password login allows). The caller answers the
 * same either way.
 */
export async function mailSignInLink(ctx: AppContext, userId: number): Promise<void> {
  const now = ctx.now();
  // Locked per account, so simultaneous attempts cannot all pass the count (see withLockedUser).
  const sent = await withLockedUser(ctx.db, userId, async (tx, user) => {
    if (!user.emailVerifiedAt || user.disabledAt) return false;
    const recent = await countEmailTokensSince(tx, user.id, 'sign-in', new Date(now.getTime() - 3600_000));
    if (recent >= SIGN_IN_MAILS_PER_HOUR) return false;
    const token = await issueEmailToken(tx, {
      userId: user.id,
      purpose: 'sign-in',
      ttlMs: SIGN_IN_TOKEN_TTL_MS,
      now,
    });
    const brand = { shopName: ctx.config.shopName, publicUrl: ctx.config.publicUrl };
    await enqueueMail(
      tx,
      signInLinkMail(brand, { to: user.email, username: user.username, link: signInLink(ctx, token) }),
      { now },
    );
    return true;
  });
  if (sent) ctx.outbox?.poke();
}

/**
 * Uses a sign-in token once and returns its account, which the caller logs in. A bad, used, expired or
 * superseded token (or another purpose's) is a 400; an account disabled or unverified since the mail gets
 * the 403 a password login would, and its token stays unused.
 */
export async function redeemSignInLink(ctx: AppContext, token: string): Promise<User> {
  if (!isWellFormedToken(token)) throw new HttpError(400, MSG.signInLinkFailed);
  return ctx.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, hashToken(token), 'sign-in', ctx.now());
    const user = userId === undefined ? undefined : await findUserById(tx, userId);
    if (!user) throw new HttpError(400, MSG.signInLinkFailed);
    if (user.disabledAt) throw new HttpError(403, MSG.accountDisabled);
    if (!user.emailVerifiedAt) throw new HttpError(403, MSG.notVerified);
    return user;
  });
}
