import type { z } from 'zod';
import type { adminStatusRequest } from '../../../shared/admin.ts';
import type { Db } from '../../db/client.ts';
import type { Order, Refund } from '../../db/schema.ts';
import { queueOrderMail, statusMail } from '../../orders/order-mails.ts';
import {
  customerEmail,
  type RefundDeps,
  refundableCents,
  type Settled,
  settleRefund,
  startRefund,
} from '../../orders/refunds.ts';
import { canMove, moveOrder, TransitionError } from '../../orders/state-machine.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { brandOf, lockOrderOr404, refuseWhileBlocked } from './guards.ts';

// POST /api/admin/orders/:id/status: staff move an order one step (paid -> queued -> printing -> shipped)
// or cancel it. One transaction with the order row locked: the state machine refuses an illegal move (409,
// nothing changed), so admins clicking at once make one transition; an open blocking flag refuses any move
// but a cancel. The customer's mail is queued in the same transaction, unless notify is false.
//
// Cancelling an order that was paid refunds what is left in the same step: the cancel and a pending refund
// commit together, then the provider is asked (never holding the lock across the network) and its answer
// mails the customer one cancel mail naming the refund.

export type StatusChange = z.output<typeof adminStatusRequest>;

export type StatusResult = {
  /** 200 done; 202 the refund of a cancel awaits the provider's answer (a refusal throws a 502). */
  code: 200 | 202;
};

type Committed = { order: Order; refund: Refund | null };

async function cancelMail(deps: RefundDeps, order: Order, actorUserId: number, reason: string | null) {
  const { ctx } = deps;
  await ctx.db.transaction(async (tx) => {
    const mail = statusMail(brandOf(ctx.config), order, await customerEmail(tx, order), { reason });
    if (mail) await queueOrderMail(tx, order, mail, { actor: 'admin', actorUserId, now: ctx.now() });
  });
}

async function moveLocked(
  deps: RefundDeps,
  tx: Db,
  orderId: number,
  change: StatusChange,
  actorUserId: number,
): Promise<Committed> {
  const { ctx } = deps;
  const now = ctx.now();
  const order = await lockOrderOr404(tx, orderId);
  const to = change.status;
  if (!canMove(order.status, to, 'staff')) throw new TransitionError(order.status, to);
  if (to !== 'cancelled') await refuseWhileBlocked(tx, order.id);
  const note = change.note || null;
  const moved = await moveOrder(tx, order, to, {
    role: 'staff',
    actor: 'admin',
    actorUserId,
    note,
    now,
    set:
      to === 'shipped'
        ? { carrier: change.carrier ?? null, trackingNumber: change.trackingNumber ?? null }
        : to === 'cancelled'
          ? { cancelReason: note ?? 'cancelled by staff' }
          : {},
  });
  // A cancelled order's money goes back: all that is left, settled after the commit.
  if (to === 'cancelled' && order.paymentIntentId && (await refundableCents(tx, moved)) > 0) {
    const refund = await startRefund(tx, moved, { reason: note ?? 'Order cancelled', actorUserId }, now);
    return { order: moved, refund };
  }
  if (change.notify) {
    const mail = statusMail(brandOf(ctx.config), moved, await customerEmail(tx, moved), { reason: note });
    if (mail) await queueOrderMail(tx, moved, mail, { actor: 'admin', actorUserId, now });
  }
  return { order: moved, refund: null };
}

export async function changeStatus(
  deps: RefundDeps,
  orderId: number,
  change: StatusChange,
  actorUserId: number,
): Promise<StatusResult> {
  const { ctx } = deps;
  const committed = await ctx.db.transaction((tx) => moveLocked(deps, tx, orderId, change, actorUserId));
  ctx.outbox?.poke();
  if (!committed.refund) return { code: 200 };
  const reason = change.note || null;
  const settled: Settled = await settleRefund(deps, committed.refund, {
    kind: 'cancel',
    notify: change.notify,
    reason,
  });
  if (settled.outcome === 'succeeded') return { code: 200 };
  // The order is cancelled whatever the provider said: the customer hears it now, the refund on its own.
  if (change.notify) await cancelMail(deps, committed.order, actorUserId, reason);
  ctx.outbox?.poke();
  if (settled.outcome === 'failed')
    throw new HttpError(
      502,
      `The order is cancelled, but the refund was not made. ${settled.error ?? ''}`.trim(),
    );
  return { code: 202 };
}
