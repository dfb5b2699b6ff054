import { and, asc, eq } from 'drizzle-orm';
import type { CheckoutDeps } from '../../checkout/create-checkout.ts';
import { fulfilCheckout } from '../../checkout/fulfil.ts';
import { PaymentProviderError } from '../../checkout/payment-provider.ts';
import { orders } from '../../db/schema.ts';
import { lockOrder, moveOrder } from '../../orders/state-machine.ts';

// A disabled account's open checkouts: each pending order's hosted session is expired at the provider, so it
// can no longer be paid, then the order is cancelled through the state machine, as the customer's own cancel
// and a replaced checkout do (checkout/cancel-order.ts, supersede.ts). One the customer had just paid is
// fulfilled instead (a paid order is never cancelled: staff see it on the board). If the provider cannot be
// asked, the order is cancelled all the same: a payment that still arrives for it is flagged for staff
// (fulfil.ts, "paid after cancel"), never lost. Runs after the disabling transaction has committed: the
// provider is never called while rows are locked.

export type EndedCheckouts = { cancelled: number[]; paid: number[] };

export async function endOpenCheckouts(
  deps: CheckoutDeps,
  userId: number,
  actorUserId: number,
): Promise<EndedCheckouts> {
  const { ctx } = deps;
  const open = await ctx.db
    .select({ id: orders.id, sessionId: orders.paymentSessionId })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'pending')))
    .orderBy(asc(orders.id));
  const ended: EndedCheckouts = { cancelled: [], paid: [] };
  for (const order of open) {
    try {
      const outcome = await endOne(deps, order, actorUserId);
      if (outcome) ended[outcome].push(order.id);
    } catch (err) {
      // The account is disabled whatever happens here; reconcile expires what is left in a day.
      deps.log.error({ err, orderId: order.id, userId }, "could not end a disabled account's checkout");
    }
  }
  return ended;
}

async function endOne(
  deps: CheckoutDeps,
  order: { id: number; sessionId: string | null },
  actorUserId: number,
  attempt = 0,
): Promise<keyof EndedCheckouts | null> {
  const { ctx, provider } = deps;
  if (order.sessionId) {
    let state: 'expired' | 'complete' = 'expired';
    try {
      state = await provider.expireSession(order.sessionId);
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      deps.log.warn(
        { err, orderId: order.id },
        "could not expire a disabled account's checkout; cancelling it",
      );
    }
    if (state === 'complete') {
      await fulfilCheckout(deps, order.sessionId, { actor: 'system' });
      return 'paid';
    }
  }
  const outcome = await ctx.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'pending') return null;
    // A checkout under way recorded its session after this sweep read the order: that session must be
    // expired first, or it could still be paid (asked once more, outside the lock).
    if (locked.paymentSessionId && locked.paymentSessionId !== order.sessionId && attempt === 0) {
      return { retry: locked.paymentSessionId };
    }
    await moveOrder(tx, locked, 'cancelled', {
      role: 'system',
      actor: 'admin',
      actorUserId,
      note: 'The account was disabled: its open checkout was cancelled.',
      now: ctx.now(),
      set: { cancelReason: 'account disabled' },
    });
    return 'cancelled' as const;
  });
  if (outcome !== null && typeof outcome === 'object') {
    return endOne(deps, { id: order.id, sessionId: outcome.retry }, actorUserId, attempt + 1);
  }
  return outcome;
}
