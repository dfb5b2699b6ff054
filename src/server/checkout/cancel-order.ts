import { and, eq } from 'drizzle-orm';
import { orders } from '../db/schema.ts';
import { lockOrder, moveOrder } from '../orders/state-machine.ts';
import { HttpError } from '../plugins/error-handler.ts';
import type { CheckoutDeps } from './create-checkout.ts';
import { fulfilCheckout } from './fulfil.ts';
import { PaymentProviderError } from './payment-provider.ts';

// POST /api/orders/:id/cancel: a customer gives up their own order while it waits for its payment. Its
// hosted session is expired first, so it can no longer be paid; a session the customer had just paid is
// fulfilled instead, and the answer says the order is paid.

export const CANCEL_MSG = {
  notFound: 'Order not found.',
  notPending:
    'Only an order that is waiting for its payment can be cancelled here. Please contact us about this one.',
  justPaid: 'This order was just paid, so it was not cancelled. Please contact us if you want to cancel it.',
  providerDown:
    'The payment service is not available right now, so the order could not be cancelled. Please try again in a few minutes.',
} as const;

export async function cancelOwnOrder(deps: CheckoutDeps, userId: number, orderId: number) {
  const { ctx, provider } = deps;
  const [order] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new HttpError(404, CANCEL_MSG.notFound);
  if (order.status !== 'pending') throw new HttpError(409, CANCEL_MSG.notPending);
  if (order.paymentSessionId) {
    let ended: 'expired' | 'complete';
    try {
      ended = await provider.expireSession(order.paymentSessionId);
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      deps.log.warn({ err, orderId }, 'could not expire a checkout the customer cancelled');
      throw new HttpError(502, CANCEL_MSG.providerDown);
    }
    if (ended === 'complete') {
      await fulfilCheckout(deps, order.paymentSessionId, { actor: 'customer' });
      throw new HttpError(409, CANCEL_MSG.justPaid);
    }
  }
  return ctx.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'pending') throw new HttpError(409, CANCEL_MSG.notPending);
    const moved = await moveOrder(tx, locked, 'cancelled', {
      role: 'customer',
      actor: 'customer',
      actorUserId: userId,
      note: 'cancelled by the customer before paying',
      now: ctx.now(),
      set: { cancelReason: 'cancelled by the customer' },
    });
    return { id: moved.id, status: moved.status };
  });
}
