import { eq } from 'drizzle-orm';
import { deleteUserSessions } from '../../auth/sessions-repository.ts';
import type { CheckoutDeps } from '../../checkout/create-checkout.ts';
import { accountEvents, users } from '../../db/schema.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { changeAccount, recordAccountEvent, refuseLastAdmin } from './account-changes.ts';
import { endOpenCheckouts } from './end-checkouts.ts';
import { CUSTOMER_MSG } from './params.ts';

// POST /api/admin/customers/:id/disable { value }. Disabling, in one transaction with the account locked:
// disabled_at is set, every session of the account is deleted (its next request is logged out: the session
// check also refuses a disabled account's session, should a login racing this one make one) and the history
// row written. Then, once that has committed, its open checkouts are expired at the provider and cancelled
// (end-checkouts.ts), and the history row names them. Never the admin's own account, never the last admin
// who can log in. Enabling clears disabled_at: the customer can log in again (their sessions stay ended).

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function orderList(ids: number[]): string {
  return ids.map((id) => `#${id}`).join(', ');
}

export async function setDisabled(deps: CheckoutDeps, userId: number, actorId: number, value: boolean) {
  const { ctx } = deps;
  const done = await changeAccount(ctx.db, actorId, userId, async (tx, locked) => {
    const { target } = locked;
    const now = ctx.now();
    if (!value) {
      if (!target.disabledAt) throw new HttpError(409, CUSTOMER_MSG.enabledAlready(target.username));
      await tx.update(users).set({ disabledAt: null, updatedAt: now }).where(eq(users.id, target.id));
      await recordAccountEvent(tx, { userId: target.id, action: 'enabled', actorUserId: actorId, now });
      return { username: target.username, eventId: null, sessions: 0 };
    }
    if (target.disabledAt) throw new HttpError(409, CUSTOMER_MSG.disabledAlready(target.username));
    if (target.id === actorId) throw new HttpError(409, CUSTOMER_MSG.disableYourself);
    refuseLastAdmin(locked);
    await tx.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, target.id));
    const sessions = await deleteUserSessions(tx, target.id);
    const eventId = await recordAccountEvent(tx, {
      userId: target.id,
      action: 'disabled',
      actorUserId: actorId,
      note: `${plural(sessions, 'session', 'sessions')} ended.`,
      now,
    });
    return { username: target.username, eventId, sessions };
  });
  if (done.eventId === null) return `${done.username}'s account is enabled: they can log in again.`;

  const ended = await endOpenCheckouts(deps, userId, actorId);
  const parts = [`${plural(done.sessions, 'session', 'sessions')} ended`];
  if (ended.cancelled.length > 0)
    parts.push(
      `${ended.cancelled.length === 1 ? 'open checkout' : 'open checkouts'} cancelled: ${orderList(ended.cancelled)}`,
    );
  if (ended.paid.length > 0) parts.push(`paid just before, so kept: ${orderList(ended.paid)}`);
  if (ended.cancelled.length + ended.paid.length > 0)
    await ctx.db
      .update(accountEvents)
      .set({ note: `${parts.join('; ')}.` })
      .where(eq(accountEvents.id, done.eventId));
  return `${done.username}'s account is disabled: ${parts.join('; ')}.`;
}
