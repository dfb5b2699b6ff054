import { and, asc, eq, ne } from 'drizzle-orm';
import { orders } from '../db/schema.ts';
import { lockOrder, moveOrder } from '../orders/state-machine.ts';
import type { CheckoutDeps } from './create-checkout.ts';
import { fulfilCheckout } from './fulfil.ts';
import { PaymentProviderError } from './payment-provider.ts';

// One open checkout per customer (docs/domain.md): once a changed cart's new session exists, the customer's
// other pending orders are replaced. Each one's hosted session is expired at the provider first, so it can
// no longer be paid; if the customer finished paying it just before, it is fulfilled instead (a paid order
// is never cancelled). If the provider cannot be asked, the order is cancelled all the same: a payment that
// still arrives for it is flagged for staff (fulfil.ts, "paid after cancel"), never lost.

export async function supersedeOpenCheckouts(deps: CheckoutDeps, userId: number, newOrderId: number) {
  const { ctx } = deps;
  const others = await ctx.db
    .select({ id: orders.id, sessionId: orders.paymentSessionId })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'pending'), ne(orders.id, newOrderId)))
    .orderBy(asc(orders.id));
  for (const other of others) {
    try {
      await replaceOne(deps, other, newOrderId);
    } catch (err) {
      deps.log.warn({ err, orderId: other.id, newOrderId }, 'could not replace an open checkout');
    }
  }
}

async function replaceOne(
  deps: CheckoutDeps,
  other: { id: number; sessionId: string | null },
  newOrderId: number,
) {
  const { ctx, provider } = deps;
  if (other.sessionId) {
    let ended: 'expired' | 'complete' = 'expired';
    try {
      ended = await provider.expireSession(other.sessionId);
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      deps.log.warn({ err, orderId: other.id }, 'could not expire a replaced checkout; cancelling it anyway');
    }
    if (ended === 'complete') {
      await fulfilCheckout(deps, other.sessionId, { actor: 'system' });
      return;
    }
  }
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, other.id);
    if (order?.status !== 'pending') return;
    const reason = `replaced by order #${newOrderId}`;
    await moveOrder(tx, order, 'cancelled', {
      role: 'system',
      actor: 'system',
      note: `The customer checked out a changed cart: ${reason}.`,
      metadata: { replacedBy: newOrderId },
      now: ctx.now(),
      set: { cancelReason: reason },
    });
  });
}
