import { retireEmailTokens } from '../../auth/email-tokens-repository.ts';
import { markEmailVerified } from '../../auth/users-repository.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { changeAccount, recordAccountEvent } from './account-changes.ts';
import { CUSTOMER_MSG } from './params.ts';

// POST /api/admin/customers/:id/verify { value: true }: staff vouch for the email address (the customer
// could not get the mail). Its open verification links are retired; a disabled account stays disabled.

export async function markVerified(ctx: AppContext, userId: number, actorId: number): Promise<string> {
  return changeAccount(ctx.db, actorId, userId, async (tx, { target }) => {
    if (target.emailVerifiedAt) throw new HttpError(409, CUSTOMER_MSG.verifiedAlready);
    const now = ctx.now();
    await markEmailVerified(tx, target.id, now);
    await retireEmailTokens(tx, target.id, 'verify', now);
    await recordAccountEvent(tx, { userId: target.id, action: 'verified', actorUserId: actorId, now });
    return `${target.username}'s email address is marked verified.`;
  });
}
