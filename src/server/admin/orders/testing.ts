import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { countRows, createLoggedInUser, postJson } from '../../auth/testing.ts';
import {
  type Customer,
  cartItem,
  orderOfSession,
  paySimulator,
  startCheckout,
} from '../../checkout/testing.ts';
import type { Db } from '../../db/client.ts';
import {
  type Order,
  orderEvents,
  orderFlags,
  orderItemEvents,
  orderItems,
  orders,
  outbox,
  refunds,
} from '../../db/schema.ts';
import type { TestApp } from '../../testing/test-app.ts';

// Helpers for the back office's tests: an admin, its calls, orders made straight in the database (fast, any
// state) or paid through the simulator (the real path), and a snapshot of everything an admin call may change.

export async function makeAdmin(t: TestApp, username?: string) {
  return createLoggedInUser(t, { isAdmin: true, ...(username ? { username } : {}) });
}

export function adminGet(t: TestApp, url: string, cookie: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

export function adminPost(t: TestApp, url: string, body: unknown, cookie: string) {
  return postJson(t, url, body, { cookie });
}

let serial = 0;

export type ItemSeed = Partial<typeof orderItems.$inferInsert>;

/** An order of `userId` in any state, with its items (one 12.00 blue box unless told otherwise). */
export async function insertOrder(
  db: Db,
  userId: number,
  fields: Partial<typeof orders.$inferInsert> = {},
  items: ItemSeed[] = [{}],
): Promise<Order> {
  serial++;
  const status = fields.status ?? 'paid';
  const paid = status !== 'pending' && status !== 'failed';
  const total = items.reduce((sum, i) => sum + (i.lineTotalCents ?? 1200), 0);
  const [order] = await db
    .insert(orders)
    .values({
      userId,
      status: 'paid',
      totalCents: total,
      subtotalCents: total,
      shippingName: 'Ada Lovelace',
      shippingLine1: '1 Main St',
      shippingCity: 'Madison',
      shippingState: 'WI',
      shippingPostalCode: '53703',
      shippingCountry: 'US',
      ...(paid
        ? {
            paymentProvider: 'simulator',
            paymentIntentId: `pi_sim_seed${process.pid}x${serial}`,
            amountPaidCents: total,
            paidAt: new Date(),
            shipBy: '2099-01-01',
          }
        : {}),
      ...fields,
    })
    .returning();
  if (!order) throw new Error('insertOrder: no row');
  for (const item of items) {
    await db.insert(orderItems).values({
      orderId: order.id,
      fileName: 'box.stl',
      color: '#007bff',
      strength: 3,
      quantity: 1,
      unitPriceCents: 1200,
      lineTotalCents: 1200,
      grams: 10,
      printHours: 0.5,
      ...item,
    });
  }
  return order;
}

/** A real order paid through the simulator's hosted page; returns its id. */
export async function paidOrder(
  t: TestApp,
  customer: Customer,
  modelId: string,
  line: Record<string, unknown> = {},
) {
  const res = await startCheckout(t, customer, [cartItem(modelId, line)]);
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = res.json().id as string;
  const paid = await paySimulator(t, sessionId);
  expect(paid.statusCode, paid.body).toBe(200);
  const order = await orderOfSession(t, sessionId);
  expect(order?.status).toBe('paid');
  return order!.id;
}

export async function orderRow(t: TestApp, id: number): Promise<Order> {
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw new Error(`no order ${id}`);
  return order;
}

/** Everything an admin call may change, to compare before and after a refused one. */
export async function snapshot(t: TestApp) {
  const db = t.database.db;
  const rows = await db.select().from(orders).orderBy(orders.id);
  const items = await db.select().from(orderItems).orderBy(orderItems.id);
  const flags = await db.select().from(orderFlags).orderBy(orderFlags.id);
  return {
    orders: rows.map((o) => ({
      id: o.id,
      status: o.status,
      refunded: o.amountRefundedCents,
      updatedAt: o.updatedAt,
    })),
    items: items.map((i) => ({ id: i.id, printedAt: i.printedAt, reprints: i.reprints })),
    flags: flags.map((f) => ({ id: f.id, resolvedAt: f.resolvedAt })),
    events: await countRows(db, orderEvents),
    itemEvents: await countRows(db, orderItemEvents),
    refunds: await countRows(db, refunds),
    outbox: await countRows(db, outbox),
  };
}
