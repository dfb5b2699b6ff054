import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPost, insertOrder, makeAdmin, orderRow } from '../admin/orders/testing.ts';
import { createLoggedInUser } from '../auth/testing.ts';
import { refunds } from '../db/schema.ts';
import { REFUND_MSG } from '../orders/refunds.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { snapshotEverything } from './api-snapshot.ts';

// Refunds above what was paid, the cases refund.test.ts leaves out: partial refunds that add up to more
// than the order, partial refunds racing each other, and amounts no JSON number should be. Each refused
// one is a 400 that changes nothing; what was refunded never exceeds what was paid.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let customerId: number;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  admin = await makeAdmin(t);
  customerId = (await createLoggedInUser(t)).user.id;
});
afterAll(() => t.close());

const refund = (id: number, body: Record<string, unknown>) =>
  adminPost(t, `/api/admin/orders/${id}/refund`, body, admin.cookie);

/** A printing order of 42.00 (12.00 + 30.00), paid through the simulator. */
const paidOrder = () =>
  insertOrder(t.database.db, customerId, { status: 'printing' }, [
    {},
    { quantity: 3, unitPriceCents: 1000, lineTotalCents: 3000 },
  ]);

const refundRows = (orderId: number) =>
  t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));

describe('refunds above what was paid', () => {
  it('refuses a second partial refund that would take the total over what was paid (400, nothing changes)', async () => {
    const order = await paidOrder();
    expect((await refund(order.id, { amountCents: 3000, reason: 'late' })).statusCode).toBe(200);
    const before = await snapshotEverything(t);
    const over = await refund(order.id, { amountCents: 1201, reason: 'more' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: REFUND_MSG.tooMuch(1200, 'usd') });
    expect(await snapshotEverything(t)).toEqual(before);
    // Exactly what is left still works, and then nothing more.
    expect((await refund(order.id, { amountCents: 1200, reason: 'rest' })).statusCode).toBe(200);
    const after = await refund(order.id, { amountCents: 1, reason: 'one cent' });
    expect(after.statusCode).toBe(400);
    expect(after.json()).toEqual({ error: REFUND_MSG.nothingLeft });
    expect((await orderRow(t, order.id)).amountRefundedCents).toBe(4200);
  });

  it('lets only as many racing partial refunds through as the order can pay back', async () => {
    const order = await paidOrder();
    const answers = await Promise.all(
      [1, 2, 3].map(() => refund(order.id, { amountCents: 1500, reason: 'racing' })),
    );
    // 3 x 15.00 > 42.00: two go through, the third is refused.
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 400]);
    const rows = await refundRows(order.id);
    expect(rows.map((r) => r.amountCents)).toEqual([1500, 1500]);
    expect((await orderRow(t, order.id)).amountRefundedCents).toBe(3000);

    const second = await paidOrder();
    const pair = await Promise.all([
      refund(second.id, { amountCents: 3000, reason: 'a' }),
      refund(second.id, { amountCents: 3000, reason: 'b' }),
    ]);
    expect(pair.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect((await orderRow(t, second.id)).amountRefundedCents).toBe(3000);
    expect(await refundRows(second.id)).toHaveLength(1);
  });

  it('refuses a negative, huge, fractional, textual or overflowing amount with 400, changing nothing', async () => {
    const order = await paidOrder();
    const before = await snapshotEverything(t);
    const raw = [
      '{"amountCents":-100,"reason":"x"}',
      '{"amountCents":1e9,"reason":"x"}',
      '{"amountCents":1e400,"reason":"x"}',
      '{"amountCents":"100","reason":"x"}',
      '{"amountCents":0.5,"reason":"x"}',
      '{"amountCents":9007199254740993,"reason":"x"}',
      '{"amountCents":[100],"reason":"x"}',
    ];
    for (const payload of raw) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${order.id}/refund`,
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie: admin.cookie },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error, payload).toEqual(expect.any(String));
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });
});
