import { count, desc, eq, sql } from 'drizzle-orm';
import type { AdminOrderCounts, AdminOrderList, AdminOrderRow } from '../../../shared/admin.ts';
import { ORDER_STATUSES } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { orderFlags, orderItems, orders, users } from '../../db/schema.ts';
import { isTestOrder } from '../../orders/order-mails.ts';
import { shopDate } from '../../shipping/ship-by.ts';
import { filterCondition, hasOpenFlag, type OrdersFilter, scopeCondition } from './order-filter.ts';

// GET /api/admin/orders: the board. Two queries whatever the page holds: the tab counts (one grouped
// query, within the search and dates but whatever the tab) and the page's rows with their piece and open
// flag counts (subqueries, no query per order). The total comes from the counts.

/** Not on its way or ended, and its ship-by day is over in the shop's time zone. */
export function isLate(order: { status: string; shipBy: string | null }, now: Date): boolean {
  if (order.shipBy === null || ['shipped', 'cancelled', 'failed'].includes(order.status)) return false;
  return order.shipBy < shopDate(now);
}

async function tabCounts(db: Db, filter: OrdersFilter) {
  const rows = await db
    .select({
      status: orders.status,
      n: count(),
      flagged: sql<number>`count(*) filter (where ${hasOpenFlag})`.mapWith(Number),
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(scopeCondition(filter))
    .groupBy(orders.status);
  const counts: AdminOrderCounts = {
    all: 0,
    flagged: 0,
    ...Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])),
  } as AdminOrderCounts;
  const flaggedBy = new Map<string, number>();
  for (const r of rows) {
    counts.all += r.n;
    counts.flagged += r.flagged;
    if (Object.hasOwn(counts, r.status)) counts[r.status as keyof AdminOrderCounts] += r.n;
    flaggedBy.set(r.status, r.flagged);
  }
  const total = filter.status
    ? filter.flagged
      ? (flaggedBy.get(filter.status) ?? 0)
      : counts[filter.status]
    : filter.flagged
      ? counts.flagged
      : counts.all;
  return { counts, total };
}

export async function listAdminOrders(db: Db, filter: OrdersFilter, now: Date): Promise<AdminOrderList> {
  const { counts, total } = await tabCounts(db, filter);
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      status: orders.status,
      shippingName: orders.shippingName,
      username: users.username,
      accountEmail: users.email,
      customerEmail: orders.customerEmail,
      totalCents: orders.totalCents,
      currency: orders.currency,
      shipBy: orders.shipBy,
      paymentProvider: orders.paymentProvider,
      itemCount:
        sql<number>`(select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`.mapWith(
          Number,
        ),
      openFlags:
        sql<number>`(select count(*) from ${orderFlags} where ${orderFlags.orderId} = ${orders.id} and ${orderFlags.resolvedAt} is null)`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(filterCondition(filter))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  return {
    orders: rows.map(
      (r): AdminOrderRow => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        status: r.status as AdminOrderRow['status'],
        customerName: r.shippingName || r.username,
        username: r.username,
        email: r.customerEmail ?? r.accountEmail,
        itemCount: r.itemCount,
        totalCents: r.totalCents,
        currency: r.currency,
        shipBy: r.shipBy,
        late: isLate(r, now),
        openFlags: r.openFlags,
        testMode: isTestOrder(r),
      }),
    ),
    total,
    counts,
    page: filter.page,
    pageSize: filter.pageSize,
  };
}
