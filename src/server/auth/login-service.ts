import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import type { AttemptLimiter } from './login-throttle.ts';
import { accountThrottleKey, throttleKey } from './login-throttle.ts';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from './passwords.ts';
import { MSG } from './schemas.ts';
import { findUserByLogin, updatePasswordHash } from './users-repository.ts';

/**
 * Checks a username (or email) and password. Unknown user and wrong password are the same 401, and take
 * the same time (a dummy hash is verified). The right password for an unverified account is a 403. Too
 * many failures for one username is a 429 with Retry-After until the window passes; an attempt counts
 * from its start, so more than that many at once for one account get 429 even with the right password.
 */
export async function authenticate(
  ctx: AppContext,
  limiter: AttemptLimiter,
  input: { login: string; password: string },
): Promise<User> {
  const user = await findUserByLogin(ctx.db, input.login);
  // One bucket per account, whether it is named by its username or its email; unknown names get their own.
  const key = user ? accountThrottleKey(user.id) : throttleKey(input.login);
  // Counted before the password is checked, so simultaneous guesses cannot all slip under the limit.
  const now = ctx.now();
  const waitMs = await limiter.take(key, now);
  if (waitMs > 0) {
    throw new HttpError(429, MSG.loginThrottled, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
  }
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !ok) throw new HttpError(401, MSG.loginInvalid);
  if (!user.emailVerifiedAt) {
    // The right password is no failure, but it does not clear earlier failures either.
    await limiter.forgive(key, now);
    throw new HttpError(403, MSG.notVerified);
  }
  await limiter.reset(key);
  if (needsRehash(user.passwordHash)) {
    await updatePasswordHash(ctx.db, user.id, await hashPassword(input.password), ctx.now());
  }
  return user;
}
