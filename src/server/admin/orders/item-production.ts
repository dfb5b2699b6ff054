import { and, eq, sql } from 'drizzle-orm';
import { statusLabel } from '../../../shared/catalog.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { orderEvents, orderItemEvents, orderItems } from '../../db/schema.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { lockOrderOr404 } from './guards.ts';
import { ADMIN_MSG } from './params.ts';

// An item's way through production, as item events (docs/domain.md: a failed print is not an order status):
// POST .../items/:itemId/printed marks its pieces printed (it leaves the production sheet) while the order
// prints; POST .../items/:itemId/reprint sends it back to the printers with the reason, while the order is
// queued or printing. The order's status stays as it is.

async function itemOf(tx: Db, orderId: number, itemId: number) {
  const [item] = await tx
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.id, itemId), eq(orderItems.orderId, orderId)));
  if (!item) throw new HttpError(404, ADMIN_MSG.itemNotFound);
  return item;
}

export async function reprintItem(
  ctx: AppContext,
  ids: { orderId: number; itemId: number },
  reason: string,
  actorUserId: number,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, ids.orderId);
    const item = await itemOf(tx, order.id, ids.itemId);
    if (order.status !== 'queued' && order.status !== 'printing')
      throw new HttpError(409, ADMIN_MSG.reprintStatus(statusLabel(order.status)));
    const now = ctx.now();
    await tx
      .update(orderItems)
      .set({ reprints: sql`${orderItems.reprints} + 1`, printedAt: null })
      .where(eq(orderItems.id, item.id));
    const [event] = await tx
      .insert(orderItemEvents)
      .values({
        orderItemId: item.id,
        orderId: order.id,
        kind: 'reprint',
        reason,
        actorUserId,
        createdAt: now,
      })
      .returning({ id: orderItemEvents.id });
    await tx.insert(orderEvents).values({
      orderId: order.id,
      kind: 'reprint',
      actor: 'admin',
      actorUserId,
      note: `Reprint of ${item.fileName} (${item.quantity} x): ${reason}`,
      metadata: { itemId: item.id, itemEventId: event?.id, reprints: item.reprints + 1 },
      createdAt: now,
    });
  });
}

export async function markItemPrinted(
  ctx: AppContext,
  ids: { orderId: number; itemId: number },
  actorUserId: number,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, ids.orderId);
    const item = await itemOf(tx, order.id, ids.itemId);
    if (order.status !== 'printing')
      throw new HttpError(409, ADMIN_MSG.printedStatus(statusLabel(order.status)));
    if (item.printedAt) throw new HttpError(409, ADMIN_MSG.alreadyPrinted);
    const now = ctx.now();
    await tx.update(orderItems).set({ printedAt: now }).where(eq(orderItems.id, item.id));
    await tx
      .insert(orderItemEvents)
      .values({ orderItemId: item.id, orderId: order.id, kind: 'printed', actorUserId, createdAt: now });
  });
}
