import { and, desc, eq, gte, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { SOLD_STATUSES } from '../../../shared/admin-dashboard.ts';
import type { Db } from '../../db/client.ts';
import { orderItems, orders } from '../../db/schema.ts';

// The dashboard's money and mix figures, each one grouped query: sold orders (paid, queued, printing or
// shipped now) by the shop week they were paid in, orders placed by status, and the pieces sold by color
// and by strength. `scope` leaves test orders out where the dashboard says so.

/** Test orders are paid through the simulator. */
const TEST_ORDER = sql`${orders.paymentProvider} = 'simulator'`;
const REAL_ORDER = sql`${orders.paymentProvider} is distinct from 'simulator'`;

/** Whether the shop has ever been paid for real: else its test orders are all it has, and they count. */
export async function hasRealOrders(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(isNotNull(orders.paidAt), REAL_ORDER))
    .limit(1);
  return row !== undefined;
}

export type Scope = { since: Date; timeZone: string; includeTests: boolean };

const testFilter = (scope: Scope): SQL | undefined => (scope.includeTests ? undefined : REAL_ORDER);

/** Sold orders paid since `scope.since`. */
const soldSince = (scope: Scope) =>
  and(inArray(orders.status, [...SOLD_STATUSES]), gte(orders.paidAt, scope.since), testFilter(scope));

/** What the customer paid (items, shipping, tax) less what was refunded of it. */
const NET_CENTS = sql`coalesce(${orders.amountPaidCents}, ${orders.totalCents}) - ${orders.amountRefundedCents}`;

/** Revenue and orders per shop week (its Monday, YYYY-MM-DD); weeks without orders are absent. */
export async function soldByWeek(db: Db, scope: Scope) {
  // `group by 1`: the time zone is a parameter, and the same expression with another placeholder would not
  // be recognised as the selected one.
  const week = sql<string>`to_char(date_trunc('week', ${orders.paidAt} at time zone ${scope.timeZone}), 'YYYY-MM-DD')`;
  return db
    .select({
      week,
      orders: sql<number>`count(*)`.mapWith(Number),
      revenueCents: sql<number>`coalesce(sum(${NET_CENTS}), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(soldSince(scope))
    .groupBy(sql`1`);
}

/** Sold test orders paid since `since`, counted or not. */
export async function testOrdersSince(db: Db, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(and(inArray(orders.status, [...SOLD_STATUSES]), gte(orders.paidAt, since), TEST_ORDER));
  return row?.n ?? 0;
}

/** Orders placed since `scope.since`, by their status now. */
export function ordersByStatus(db: Db, scope: Scope) {
  return db
    .select({ status: orders.status, orders: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(and(gte(orders.createdAt, scope.since), testFilter(scope)))
    .groupBy(orders.status);
}

/** Pieces of the sold orders paid since `scope.since`, by color and by strength, most first. */
export async function piecesSold(db: Db, scope: Scope) {
  const pieces = sql<number>`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(Number);
  const colors = await db
    .select({ color: orderItems.color, pieces })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(soldSince(scope))
    .groupBy(orderItems.color)
    .orderBy(desc(pieces), orderItems.color);
  const strengths = await db
    .select({ strength: orderItems.strength, pieces })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(soldSince(scope))
    .groupBy(orderItems.strength)
    .orderBy(desc(pieces), orderItems.strength);
  return { colors, strengths };
}
