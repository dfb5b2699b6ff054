import { and, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { adminOrdersQuery } from '../../../shared/admin.ts';
import { orderFlags, orderItems, orders, users } from '../../db/schema.ts';
import { shopDayEnd, shopDayStart } from './shop-days.ts';

// The board's filters as SQL over `orders` joined with `users` (the list, its counts and the CSV export):
// the scope (search and date range), which the tab counts respect, and the tab (status or flagged), which
// they do not.

export type OrdersFilter = z.output<typeof adminOrdersQuery>;

/** Whether the order has a flag nobody resolved yet. */
export const hasOpenFlag = sql<boolean>`exists (select 1 from ${orderFlags} where ${orderFlags.orderId} = ${orders.id} and ${orderFlags.resolvedAt} is null)`;

/** A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `12` or `#12` finds order 12; any text finds the name shipped to, the username, the order's or the
 * account's email, or an item's file name (case-insensitive, anywhere in it).
 */
function searchCondition(q: string): SQL | undefined {
  const text = q.trim();
  if (text === '') return undefined;
  const pattern = containsPattern(text);
  const idText = text.replace(/^#\s*/, '');
  return or(
    /^\d{1,9}$/.test(idText) ? eq(orders.id, Number(idText)) : undefined,
    ilike(orders.shippingName, pattern),
    ilike(users.username, pattern),
    ilike(orders.customerEmail, pattern),
    ilike(users.email, pattern),
    sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id} and ${orderItems.fileName} ilike ${pattern})`,
  );
}

/** Search and date range (shop days, both included): what the tab counts are computed within. */
export function scopeCondition(filter: Pick<OrdersFilter, 'q' | 'from' | 'to'>): SQL | undefined {
  return and(
    filter.q ? searchCondition(filter.q) : undefined,
    filter.from ? gte(orders.createdAt, shopDayStart(filter.from)) : undefined,
    filter.to ? lt(orders.createdAt, shopDayEnd(filter.to)) : undefined,
  );
}

/** The tab: one status, and/or only orders with an open flag (`flagged=1`; `0` or empty filters nothing). */
export function tabCondition(filter: Pick<OrdersFilter, 'status' | 'flagged'>): SQL | undefined {
  return and(
    filter.status ? eq(orders.status, filter.status) : undefined,
    filter.flagged ? hasOpenFlag : undefined,
  );
}

export function filterCondition(filter: OrdersFilter): SQL | undefined {
  return and(scopeCondition(filter), tabCondition(filter));
}
