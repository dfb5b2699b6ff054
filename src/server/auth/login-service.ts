import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from './passwords.ts';
import { MSG } from './schemas.ts';
import { findUserByLogin, updatePasswordHash } from './users-repository.ts';

/** Where an attempt comes from: the client's address bucket, and its device cookie's entry for an account. */
export type LoginSource = { bucket: string; trustedDevice(userId: number): Promise<string | null> };

/**
 * Checks a username (or email) and password. Unknown user and wrong password are the same 401, and take
 * the same time (a dummy hash is verified). The right password for a disabled account is a 403 saying so
 * (staff disabled it: the back office's customers), and for an unverified one a 403 too. Too
 * many failures from this client for this name, or from all clients without a device cookie together, is
 * a 429 with Retry-After until the window passes (LoginThrottle); an attempt counts from its start, so more
 * than that many at once from one client get 429 even with the right password.
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
