import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { adminRefundRequest } from '../../../shared/admin.ts';
import { orderItems } from '../../db/schema.ts';
import { REFUND_MSG, type RefundDeps, settleRefund, startRefund } from '../../orders/refunds.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { lockOrderOr404 } from './guards.ts';

// POST /api/admin/orders/:id/refund: money back through the payment provider, all that is left without an
// amount (a partial refund needs a reason). The refund is written pending with the order locked (so two
// clicks cannot send it twice, and more than is left is refused with 400 before anything is written), then
// the provider is asked after the commit. The order's status does not change.

export type RefundAsk = z.output<typeof adminRefundRequest>;

/** 200 refunded; 202 the provider has not answered (it stays pending and is asked again); 502 refused. */
export async function refundOrder(
  deps: RefundDeps,
  orderId: number,
  ask: RefundAsk,
  actorUserId: number,
): Promise<{ code: 200 | 202 }> {
  const { ctx } = deps;
  const refund = await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, orderId);
    if (ask.itemId !== undefined) {
      const [item] = await tx
        .select({ id: orderItems.id })
        .from(orderItems)
        .where(and(eq(orderItems.id, ask.itemId), eq(orderItems.orderId, order.id)));
      if (!item) throw new HttpError(400, REFUND_MSG.noItem);
    }
    return startRefund(
      tx,
      order,
      { amountCents: ask.amountCents, reason: ask.reason, itemId: ask.itemId, actorUserId },
      ctx.now(),
    );
  });
  const settled = await settleRefund(deps, refund, { kind: 'refund', notify: ask.notify });
  if (settled.outcome === 'failed') throw new HttpError(502, settled.error ?? REFUND_MSG.refused('unknown'));
  return { code: settled.outcome === 'pending' ? 202 : 200 };
}
