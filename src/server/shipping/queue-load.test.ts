import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { orderItems, orders, users } from '../db/schema.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { queueHours } from './queue-load.ts';

let database: Database;
let userId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  const [user] = await database.db
    .insert(users)
    .values({ username: 'queue', email: 'queue@example.com', passwordHash: 'x' })
    .returning({ id: users.id });
  userId = user!.id;
});
afterAll(() => database.close());

type Item = { printHours: number | null; quantity: number; printed?: boolean };

async function placeOrder(status: string, items: Item[]) {
  const [order] = await database.db
    .insert(orders)
    .values({ userId, status, totalCents: 1200, subtotalCents: 1200 })
    .returning({ id: orders.id });
  for (const item of items) {
    await database.db.insert(orderItems).values({
      orderId: order!.id,
      fileName: 'part.stl',
      color: '#007bff',
      strength: 3,
      quantity: item.quantity,
      unitPriceCents: 1200,
      lineTotalCents: 1200 * item.quantity,
      printHours: item.printHours,
      printedAt: item.printed ? new Date() : null,
    });
  }
}

describe('queueHours', () => {
  it('is 0 with nothing queued', async () => {
    expect(await queueHours(database.db)).toBe(0);
  });

  it('sums print hours x quantity of the unprinted items of paid, queued and printing orders', async () => {
    await placeOrder('paid', [
      { printHours: 1.5, quantity: 2 }, // 3
      { printHours: null, quantity: 5 }, // unknown: 0
    ]);
    await placeOrder('queued', [
      { printHours: 2.25, quantity: 4 }, // 9
      { printHours: 10, quantity: 1, printed: true }, // printed: out
    ]);
    await placeOrder('printing', [
      { printHours: 0.5, quantity: 3 }, // 1.5
      { printHours: 7, quantity: 2, printed: true },
    ]);
    for (const status of ['pending', 'shipped', 'failed', 'cancelled']) {
      await placeOrder(status, [{ printHours: 100, quantity: 1 }]);
    }
    expect(await queueHours(database.db)).toBeCloseTo(13.5, 9);
  });

  it('counts a reprinted item again once its printed mark is cleared', async () => {
    const before = await queueHours(database.db);
    await database.db
      .update(orderItems)
      .set({ printedAt: null })
      .where(and(eq(orderItems.printHours, 10), isNotNull(orderItems.printedAt)));
    expect(await queueHours(database.db)).toBeCloseTo(before + 10, 9);
  });
});
