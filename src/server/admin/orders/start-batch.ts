import { statusLabel } from '../../../shared/catalog.ts';
import type { AppContext } from '../../context.ts';
import { queueOrderMail, statusMail } from '../../orders/order-mails.ts';
import { customerEmail } from '../../orders/refunds.ts';
import { moveOrder } from '../../orders/state-machine.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { brandOf, lockOrderOr404, refuseWhileBlocked } from './guards.ts';
import { ADMIN_MSG } from './params.ts';

// POST /api/admin/production/start: "Start this batch" moves each still-queued order of a batch to printing
// and mails its customer. Each order in its own transaction, so one that another admin moved first, or that
// a blocking flag holds, is refused with why and the others start.

export type BatchResult = { started: number[]; refused: { orderId: number; error: string }[] };

async function startOne(ctx: AppContext, orderId: number, actorUserId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, orderId);
    if (order.status !== 'queued') throw new HttpError(409, ADMIN_MSG.notQueued(statusLabel(order.status)));
    await refuseWhileBlocked(tx, order.id);
    const now = ctx.now();
    const moved = await moveOrder(tx, order, 'printing', {
      role: 'staff',
      actor: 'admin',
      actorUserId,
      note: 'batch started',
      now,
    });
    const mail = statusMail(brandOf(ctx.config), moved, await customerEmail(tx, moved));
    if (mail) await queueOrderMail(tx, moved, mail, { actor: 'admin', actorUserId, now });
  });
}

export async function startBatch(
  ctx: AppContext,
  orderIds: number[],
  actorUserId: number,
): Promise<BatchResult> {
  const result: BatchResult = { started: [], refused: [] };
  for (const orderId of new Set(orderIds)) {
    try {
      await startOne(ctx, orderId, actorUserId);
      result.started.push(orderId);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      result.refused.push({ orderId, error: err.message });
    }
  }
  if (result.started.length > 0) ctx.outbox?.poke();
  return result;
}
