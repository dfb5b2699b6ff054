import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionSheet, productionStartPayload } from '../../../shared/admin.ts';
import { countRows, createLoggedInUser } from '../../auth/testing.ts';
import { type Order, orderFlags, orderItems, outbox } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, adminPost, insertOrder, makeAdmin, orderRow, snapshot } from './testing.ts';

// The production sheet (GET /api/admin/production), "start this batch" (POST /api/admin/production/start),
// and the item events that move an item off the sheet (printed) and back onto it (reprint).

let t: TestApp;
let cookie: string;
const o: Record<string, Order> = {};
const itemOf = async (order: Order) =>
  (await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)))[0]!;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await makeAdmin(t)).cookie;
  const db = t.database.db;
  const user = (await createLoggedInUser(t)).user.id;
  o.late = await insertOrder(db, user, { status: 'queued', shipBy: '2099-01-05' }, [
    { quantity: 2, notes: 'glossy' },
  ]);
  o.early = await insertOrder(db, user, { status: 'queued', shipBy: '2099-01-02' }, [{ color: 'blue' }]);
  o.red = await insertOrder(db, user, { status: 'printing' }, [
    { color: '#dc3545', strength: 5, grams: 40, printHours: 2 },
  ]);
  o.paid = await insertOrder(db, user, { status: 'paid' });
  o.shipped = await insertOrder(db, user, { status: 'shipped' });
  o.done = await insertOrder(db, user, { status: 'printing' }, [{ printedAt: new Date(), color: '#28a745' }]);
  o.held = await insertOrder(db, user, { status: 'queued', shipBy: '2099-01-09' }, [
    { color: '#dc3545', strength: 5 },
  ]);
  await db
    .insert(orderFlags)
    .values({ orderId: o.held.id, kind: 'disputed', details: 'chargeback', blocking: true });
});
afterAll(() => t.close());

async function sheet() {
  const res = await adminGet(t, '/api/admin/production', cookie);
  expect(res.statusCode, res.body).toBe(200);
  return productionSheet.parse(res.json());
}
const itemPost = (order: Order, itemId: number, action: string, body: unknown) =>
  adminPost(t, `/api/admin/orders/${order.id}/items/${itemId}/${action}`, body, cookie);

describe('GET /api/admin/production', () => {
  it('groups the unprinted items of queued and printing orders by color and strength, biggest batch first', async () => {
    const { groups } = await sheet();
    expect(groups.map((g) => [g.key, g.colorName, g.strengthLabel, g.pieces, g.hours, g.grams])).toEqual([
      ['#007bff|3', 'Blue', 'Standard', 3, 1.5, 30],
      ['#dc3545|5', 'Red', 'Solid', 2, 2.5, 50],
    ]);
    const [blue, red] = groups;
    // By ship-by day, then order: the early order first.
    expect(blue!.items.map((i) => [i.orderId, i.quantity, i.orderStatus])).toEqual([
      [o.early!.id, 1, 'queued'],
      [o.late!.id, 2, 'queued'],
    ]);
    expect(blue!.items[1]).toMatchObject({
      notes: 'glossy',
      fileName: 'box.stl',
      grams: 10,
      printHours: 0.5,
      late: false,
    });
    expect(blue!.queuedOrderIds).toEqual([o.late!.id, o.early!.id].sort((a, b) => a - b));
    expect(red!.queuedOrderIds).toEqual([o.held!.id]);
  });
});

describe('printed and reprint', () => {
  it('takes a printed item off the sheet and a reprint puts it back with its reason; the order stays printing', async () => {
    const item = await itemOf(o.red!);
    const printed = await itemPost(o.red!, item.id, 'printed', {});
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.json().order.items[0].printedAt).not.toBeNull();
    expect((await sheet()).groups.find((g) => g.key === '#dc3545|5')!.items.map((i) => i.orderId)).toEqual([
      o.held!.id,
    ]);

    const reprint = await itemPost(o.red!, item.id, 'reprint', { reason: 'warped corner' });
    expect(reprint.statusCode, reprint.body).toBe(200);
    expect(reprint.json().order).toMatchObject({ status: 'printing' });
    expect(reprint.json().order.items[0]).toMatchObject({ printedAt: null, reprints: 1 });
    const back = (await sheet()).groups
      .find((g) => g.key === '#dc3545|5')!
      .items.find((i) => i.orderId === o.red!.id);
    expect(back).toMatchObject({ reprints: 1, reprintReason: 'warped corner', orderStatus: 'printing' });
    expect((await orderRow(t, o.red!.id)).status).toBe('printing');

    // The latest reason shows after a second reprint.
    await itemPost(o.red!, item.id, 'reprint', { reason: 'stringing' });
    const again = (await sheet()).groups.flatMap((g) => g.items).find((i) => i.orderId === o.red!.id);
    expect(again).toMatchObject({ reprints: 2, reprintReason: 'stringing' });
  });

  it('refuses a reprint outside queued or printing, a printed mark outside printing, and strangers’ items; nothing changes', async () => {
    const before = await snapshot(t);
    const cases: [Order, number, string, unknown, number][] = [
      [o.paid!, (await itemOf(o.paid!)).id, 'reprint', { reason: 'x' }, 409],
      [o.shipped!, (await itemOf(o.shipped!)).id, 'reprint', { reason: 'x' }, 409],
      [o.late!, (await itemOf(o.late!)).id, 'printed', {}, 409],
      [o.done!, (await itemOf(o.done!)).id, 'printed', {}, 409],
      [o.late!, (await itemOf(o.red!)).id, 'reprint', { reason: 'x' }, 404],
      [o.late!, 0, 'reprint', { reason: 'x' }, 404],
      [o.late!, (await itemOf(o.late!)).id, 'reprint', { reason: ' ' }, 400],
    ];
    for (const [order, itemId, action, body, code] of cases) {
      const res = await itemPost(order, itemId, action, body);
      expect(res.statusCode, `${order.status} ${action}`).toBe(code);
      expect(res.json()).toHaveProperty('error');
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('POST /api/admin/production/start', () => {
  it('moves the still-queued orders to printing, mails each customer, and says why the others did not start', async () => {
    const mails = await countRows(t.database.db, outbox);
    const ids = [o.late!.id, o.early!.id, o.red!.id, o.paid!.id, 999999, o.held!.id, o.late!.id];
    const res = await adminPost(t, '/api/admin/production/start', { orderIds: ids }, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const answer = productionStartPayload.parse(res.json());
    expect(answer.started).toEqual([o.late!.id, o.early!.id]);
    expect(answer.refused).toEqual([
      { orderId: o.red!.id, error: 'The order is Printing: only a queued order can start printing.' },
      {
        orderId: o.paid!.id,
        error: 'The order is Paid / Processing: only a queued order can start printing.',
      },
      { orderId: 999999, error: 'Order not found.' },
      { orderId: o.held!.id, error: expect.stringContaining('Payment disputed') },
    ]);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 2);
    const blue = (await sheet()).groups.find((g) => g.key === '#007bff|3')!;
    expect(blue.items.map((i) => i.orderStatus)).toEqual(['printing', 'printing']);
    expect(blue.queuedOrderIds).toEqual([]);
    expect((await orderRow(t, o.held!.id)).status).toBe('queued');
  });

  it('refuses an empty or malformed list with 400', async () => {
    for (const body of [{ orderIds: [] }, { orderIds: ['1'] }, {}]) {
      const res = await adminPost(t, '/api/admin/production/start', body, cookie);
      expect(res.statusCode).toBe(400);
    }
  });
});
