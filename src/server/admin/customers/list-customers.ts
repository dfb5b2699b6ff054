import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AdminCustomerList,
  type AdminCustomerRow,
  type adminCustomersQuery,
  COUNTED_STATUSES,
  CUSTOMERS_PAGE_SIZE,
} from '../../../shared/admin-customers.ts';
import type { Db } from '../../db/client.ts';
import { orders, type User, users } from '../../db/schema.ts';
import { containsPattern } from '../orders/order-filter.ts';

// GET /api/admin/customers: every account, newest first, with what it bought. Two queries whatever the page
// holds: the count, and the page's rows with their order count and total spent as subqueries.

export type CustomersQuery = z.output<typeof adminCustomersQuery>;

/** Orders paid, queued, printing or shipped: bought, and not ended. */
const counted = (userId: SQL | typeof users.id) =>
  and(eq(orders.userId, userId), inArray(orders.status, [...COUNTED_STATUSES]));

/** How many orders `users.id` bought (paid onwards). */
export const orderCountOf = sql<number>`(select count(*) from ${orders} where ${counted(users.id)})`.mapWith(
  Number,
);

/** What those orders cost less what was refunded on them (never below 0 per order). */
export const spentCentsOf =
  sql<number>`(select coalesce(sum(greatest(${orders.totalCents} - ${orders.amountRefundedCents}, 0)), 0) from ${orders} where ${counted(users.id)})`.mapWith(
    Number,
  );

/** Username or email containing `q`, any letter case, its % and _ taken literally. */
function searchCondition(q: string | undefined): SQL | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const pattern = containsPattern(text);
  return or(ilike(users.username, pattern), ilike(users.email, pattern));
}

export function customerRow(
  user: Pick<User, 'id' | 'username' | 'email' | 'emailVerifiedAt' | 'isAdmin' | 'disabledAt' | 'createdAt'>,
  bought: { orderCount: number; spentCents: number },
): AdminCustomerRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    verified: user.emailVerifiedAt !== null,
    admin: user.isAdmin,
    disabled: user.disabledAt !== null,
    orderCount: bought.orderCount,
    spentCents: bought.spentCents,
    joinedAt: user.createdAt.toISOString(),
  };
}

export async function listCustomers(db: Db, query: CustomersQuery): Promise<AdminCustomerList> {
  const where = searchCondition(query.q);
  const [counted] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      isAdmin: users.isAdmin,
      disabledAt: users.disabledAt,
      createdAt: users.createdAt,
      orderCount: orderCountOf,
      spentCents: spentCentsOf,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((query.page - 1) * CUSTOMERS_PAGE_SIZE);
  return {
    customers: rows.map((r) => customerRow(r, r)),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: CUSTOMERS_PAGE_SIZE,
  };
}
