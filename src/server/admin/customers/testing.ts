import { asc, eq } from 'drizzle-orm';
import { countRows } from '../../auth/testing.ts';
import { accountEvents, emailTokens, orders, outbox, sessions, users } from '../../db/schema.ts';
import type { TestApp } from '../../testing/test-app.ts';
import { adminPost } from '../orders/testing.ts';

// Helpers for the customers tests: the calls, and a snapshot of everything an account change may touch.

export const customerUrl = (id: number | string, action?: string) =>
  `/api/admin/customers/${id}${action ? `/${action}` : ''}`;

export function change(t: TestApp, id: number | string, action: string, body: unknown, cookie: string) {
  return adminPost(t, customerUrl(id, action), body, cookie);
}

export async function accountsSnapshot(t: TestApp) {
  const db = t.database.db;
  const rows = await db.select().from(users).orderBy(asc(users.id));
  const orderRows = await db.select().from(orders).orderBy(asc(orders.id));
  return {
    users: rows.map((u) => ({
      id: u.id,
      isAdmin: u.isAdmin,
      verifiedAt: u.emailVerifiedAt,
      disabledAt: u.disabledAt,
    })),
    orders: orderRows.map((o) => ({ id: o.id, status: o.status })),
    sessions: await countRows(db, sessions),
    events: await countRows(db, accountEvents),
    tokens: await countRows(db, emailTokens),
    outbox: await countRows(db, outbox),
  };
}

export async function eventsOf(t: TestApp, userId: number) {
  return t.database.db
    .select()
    .from(accountEvents)
    .where(eq(accountEvents.userId, userId))
    .orderBy(asc(accountEvents.id));
}

export async function userRow(t: TestApp, id: number) {
  const [user] = await t.database.db.select().from(users).where(eq(users.id, id));
  if (!user) throw new Error(`no user ${id}`);
  return user;
}
