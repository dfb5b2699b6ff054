import { countEmailTokensSince } from '../../auth/email-tokens-repository.ts';
import { issueVerification, VERIFY_MAILS_PER_HOUR } from '../../auth/verification-service.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { changeAccount, recordAccountEvent } from './account-changes.ts';
import { CUSTOMER_MSG } from './params.ts';

// POST /api/admin/customers/:id/resend-verification {}: a fresh verification link mailed to the account's
// address (issueVerification, as the login form's resend does), older links retired. The account's hourly
// cap on verification mails holds for staff too, so nobody's inbox is flooded: 429 past it.

export async function resendVerificationMail(ctx: AppContext, userId: number, actorId: number) {
  const message = await changeAccount(ctx.db, actorId, userId, async (tx, { target }) => {
    if (target.emailVerifiedAt) throw new HttpError(409, CUSTOMER_MSG.resendVerified);
    const now = ctx.now();
    const recent = await countEmailTokensSince(tx, target.id, 'verify', new Date(now.getTime() - 3600_000));
    if (recent >= VERIFY_MAILS_PER_HOUR)
      throw new HttpError(429, CUSTOMER_MSG.resendTooMany(VERIFY_MAILS_PER_HOUR));
    await issueVerification(ctx, tx, target);
    await recordAccountEvent(tx, {
      userId: target.id,
      action: 'verification_sent',
      actorUserId: actorId,
      note: `to ${target.email}`,
      now,
    });
    return `A verification mail is on its way to ${target.email}.`;
  });
  ctx.outbox?.poke();
  return message;
}
