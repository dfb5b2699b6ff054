import type { AppContext } from '../context.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { hashPassword } from './passwords.ts';
import { MSG } from './schemas.ts';
import { insertUser } from './users-repository.ts';
import { issueVerification } from './verification-service.ts';

export type Registration = { username: string; email: string; password: string };

/**
 * Creates an unverified account, its verification token and mail in one transaction. A taken username or
 * email (compared case-insensitively) is a 409 that does not say which. The password is hashed first
 * either way, so a taken name answers in about the same time.
 */
export async function registerUser(ctx: AppContext, input: Registration): Promise<{ userId: number }> {
  const passwordHash = await hashPassword(input.password);
  const userId = await ctx.db.transaction(async (tx) => {
    const user = await insertUser(tx, {
      username: input.username,
      email: input.email,
      passwordHash,
      now: ctx.now(),
    });
    if (!user) throw new HttpError(409, MSG.registerTaken);
    await issueVerification(ctx, tx, user);
    return user.id;
  });
  ctx.outbox?.poke();
  return { userId };
}
