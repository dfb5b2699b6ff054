import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { orderItems, orders } from '../db/schema.ts';

// The print queue ahead of a new order, in printer hours: every piece of a paid, queued or printing order
// not printed yet (a reprint puts its item back). One query.

/** Order statuses whose unprinted pieces wait for the printers. */
export const QUEUED_STATUSES = ['paid', 'queued', 'printing'] as const;

/** Sum of print hours x quantity over the queued items not yet printed (unknown print hours count 0). */
export async function queueHours(db: Db): Promise<number> {
  const [row] = await db
    .select({
      hours:
        sql<number>`coalesce(sum(coalesce(${orderItems.printHours}, 0) * ${orderItems.quantity}), 0)`.mapWith(
          Number,
        ),
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(inArray(orders.status, [...QUEUED_STATUSES]), isNull(orderItems.printedAt)));
  return row?.hours ?? 0;
}
