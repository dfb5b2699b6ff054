import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from './passwords.ts';
import { atLeast } from './routes/timing.ts';
import { MSG } from './schemas.ts';
import { mailSignInLink } from './sign-in-link-service.ts';
import { findUserByLogin, updatePasswordHash } from './users-repository.ts';

/**
 * How long every step-up answer takes at least: longer than checking a password and queueing a mail, so
 * a right password (which queues one) cannot be told from a wrong one or an unknown name by the clock.
 */
export const STEP_UP_ANSWER_MS = 300;

/**
 * Where an attempt comes from: the client's address bucket, and its device cookie's entry for an account;
 * and the request's log.
 */
export type LoginSource = {
  bucket: string;
  trustedDevice(userId: number): Promise<string | null>;
  log: Pick<FastifyBaseLogger, 'error'>;
};

/**
 * Checks a username (or email) and password. Unknown user and wrong password are the same 401, and take
 * the same time (a dummy hash is verified). The right password for a disabled account is a 403 saying so
 * (staff disabled it: the back office's customers), and for an unverified one a 403 too. Too
 * many failures from this client for this name, or from all clients without a device cookie together, is
 * a 429 with Retry-After until the window passes (LoginThrottle); an attempt counts from its start, so more
 * than that many at once from one client get 429 even with the right password. Once strangers have used up
 * the name's failures, a client without a device cookie gets the step-up instead (stepUp below).
 */
export async function authenticate(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: { login: string; password: string },
  source: LoginSource,
): Promise<User> {
  const user = await findUserByLogin(ctx.db, input.login);
  const trustedDevice = user ? await source.trustedDevice(user.id) : null;
  // Counted before the password is checked, so simultaneous guesses cannot all slip under the limit.
  const ticket = await throttle.begin(input.login, { bucket: source.bucket, trustedDevice }, ctx.now());
  if ('waitMs' in ticket) {
    throw new HttpError(429, MSG.loginThrottled, {
      'retry-after': String(Math.ceil(ticket.waitMs / 1000)),
    });
  }
  if (ticket.stepUp) {
    await atLeast(() => stepUp(ctx, user, input.password, source.log), STEP_UP_ANSWER_MS);
    throw new HttpError(429, MSG.loginStepUp, {
      'retry-after': String(Math.ceil(ticket.stepUp.waitMs / 1000)),
    });
  }
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !ok) throw new HttpError(401, MSG.loginInvalid);
  if (user.disabledAt) {
    // Only the account's own password learns it is disabled; nothing is unlocked by it.
    await throttle.forgive(ticket);
    throw new HttpError(403, MSG.accountDisabled);
  }
  if (!user.emailVerifiedAt) {
    // The right password is no failure, but it does not clear earlier failures either.
    await throttle.forgive(ticket);
    throw new HttpError(403, MSG.notVerified);
  }
  await throttle.succeeded(ticket);
  if (needsRehash(user.passwordHash)) {
    await updatePasswordHash(ctx.db, user.id, await hashPassword(input.password), ctx.now());
  }
  return user;
}

/**
 * A login attempt past the name's shared limit (docs/security.md 6): the password is checked, but nobody
 * is logged in and the caller answers alike whatever happened here. A right one mails the account a
 * sign-in link (when it may log in, within the mail cap). Right or wrong, the attempt stays counted
 * against this client: forgiving a right one would show by the next attempt's answer. Never throws: a
 * failure to queue the mail must not answer differently.
 */
async function stepUp(
  ctx: AppContext,
  user: User | undefined,
  password: string,
  log: LoginSource['log'],
): Promise<void> {
  const ok = user ? await verifyPassword(user.passwordHash, password) : await verifyDummyPassword(password);
  if (!user || !ok) return;
  try {
    await mailSignInLink(ctx, user.id);
  } catch (err) {
    log.error({ err, userId: user.id }, 'sign-in link mail failed');
  }
}
