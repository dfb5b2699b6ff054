import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderList } from '../../../shared/admin.ts';
import { createUser } from '../../auth/testing.ts';
import type { Order } from '../../db/schema.ts';
import { orderFlags } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, insertOrder, makeAdmin } from './testing.ts';

// GET /api/admin/orders: the board's filters, search, tab counts, pages and late orders. The orders here are
// placed in January 2030 (and two in March 2031, around a shop-day boundary), so the date range isolates them.

let t: TestApp;
let cookie: string;
const world: Record<string, Order> = {};
const JAN = 'from=2030-01-01&to=2030-01-31';

beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await makeAdmin(t)).cookie;
  const db = t.database.db;
  const zelda = (await createUser(db, { username: 'zelda_q', email: 'zq@example.org' })).user;
  const bob = (await createUser(db, { username: 'bob_builder', email: 'bob@example.net' })).user;
  const at = (day: number) => new Date(Date.UTC(2030, 0, day, 18));
  world.grace = await insertOrder(
    db,
    zelda.id,
    { shippingName: 'Grace Hopper', customerEmail: 'orders+zq@shop.example', createdAt: at(5) },
    [{ fileName: 'Turbo_Fan 50%.stl', quantity: 2, lineTotalCents: 2400 }, { fileName: 'gear.stl' }],
  );
  world.alan = await insertOrder(
    db,
    bob.id,
    { status: 'queued', shippingName: 'Alan Turing', createdAt: at(6) },
    [{ fileName: 'rotor.obj' }],
  );
  world.late = await insertOrder(db, bob.id, { status: 'printing', shipBy: '2000-01-03', createdAt: at(7) });
  world.shipped = await insertOrder(db, bob.id, {
    status: 'shipped',
    shipBy: '2000-01-03',
    createdAt: at(8),
  });
  world.cancelled = await insertOrder(db, bob.id, { status: 'cancelled', createdAt: at(9) });
  world.pending = await insertOrder(db, bob.id, { status: 'pending', createdAt: at(10) });
  world.resolved = await insertOrder(db, bob.id, { status: 'paid', createdAt: at(11) });
  world.failed = await insertOrder(db, bob.id, { status: 'failed', createdAt: at(12) });
  await db.insert(orderFlags).values([
    { orderId: world.alan!.id, kind: 'address_unreadable', details: 'no house number' },
    { orderId: world.alan!.id, kind: 'model_corrected', details: 'one shell turned' },
    { orderId: world.resolved!.id, kind: 'amount_mismatch', details: 'x', resolvedAt: new Date() },
  ]);
  world.beforeMidnight = await insertOrder(db, bob.id, { createdAt: new Date('2031-03-10T04:59:59Z') });
  world.atMidnight = await insertOrder(db, bob.id, { createdAt: new Date('2031-03-10T05:00:00Z') });
});
afterAll(() => t.close());

async function list(query: string) {
  const res = await adminGet(t, `/api/admin/orders?${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return adminOrderList.parse(res.json());
}
const ids = (l: { orders: { id: number }[] }) => l.orders.map((o) => o.id);

describe('GET /api/admin/orders', () => {
  it('lists newest first with the row fields the board shows', async () => {
    const l = await list(JAN);
    expect(ids(l)).toEqual(
      ['failed', 'resolved', 'pending', 'cancelled', 'shipped', 'late', 'alan', 'grace'].map(
        (k) => world[k]!.id,
      ),
    );
    expect(l.orders.at(-1)).toEqual({
      id: world.grace!.id,
      createdAt: '2030-01-05T18:00:00.000Z',
      status: 'paid',
      customerName: 'Grace Hopper',
      username: 'zelda_q',
      email: 'orders+zq@shop.example',
      itemCount: 3,
      totalCents: 3600,
      currency: 'usd',
      shipBy: '2099-01-01',
      late: false,
      openFlags: 0,
      testMode: true,
    });
    expect(l.orders.find((o) => o.id === world.alan!.id)).toMatchObject({
      openFlags: 2,
      email: 'bob@example.net',
    });
  });

  it('counts every tab within the search and dates, whatever the tab, and pages through', async () => {
    const counts = {
      all: 8,
      flagged: 1,
      pending: 1,
      paid: 2,
      queued: 1,
      printing: 1,
      shipped: 1,
      failed: 1,
      cancelled: 1,
    };
    const all = await list(`${JAN}&pageSize=3`);
    expect(all).toMatchObject({ total: 8, counts, page: 1, pageSize: 3 });
    const pages = [all, await list(`${JAN}&pageSize=3&page=2`), await list(`${JAN}&pageSize=3&page=3`)];
    expect(pages.map((p) => p.orders.length)).toEqual([3, 3, 2]);
    expect(pages.flatMap(ids)).toEqual(ids(await list(JAN)));
    expect((await list(`${JAN}&pageSize=3&page=9`)).orders).toEqual([]);

    const paid = await list(`${JAN}&status=paid`);
    expect(paid).toMatchObject({ total: 2, counts });
    expect(ids(paid)).toEqual([world.resolved!.id, world.grace!.id]);
    const review = await list(`${JAN}&flagged=1`);
    expect(review).toMatchObject({ total: 1, counts });
    expect(ids(review)).toEqual([world.alan!.id]);
    expect((await list(`${JAN}&flagged=1&status=paid`)).total).toBe(0);
    expect((await list(`${JAN}&flagged=0&status=`)).total).toBe(8);
    // The search narrows the counts too.
    expect((await list(`${JAN}&q=grace`)).counts).toEqual({ ...zero(), all: 1, paid: 1 });
  });

  it('finds an order by its number, with or without #', async () => {
    const id = world.alan!.id;
    for (const q of [String(id), `%23${id}`]) expect(ids(await list(`${JAN}&q=${q}`))).toEqual([id]);
  });

  it('finds orders by the name shipped to, username, either email and file name, in any case', async () => {
    const grace = [world.grace!.id];
    expect(ids(await list(`${JAN}&q=hOPPer`))).toEqual(grace);
    expect(ids(await list(`${JAN}&q=ZELDA`))).toEqual(grace);
    expect(ids(await list(`${JAN}&q=${encodeURIComponent('orders+zq@')}`))).toEqual(grace);
    expect(ids(await list(`${JAN}&q=zq@example.org`))).toEqual(grace);
    expect(ids(await list(`${JAN}&q=turbo_FAN`))).toEqual(grace);
    expect(ids(await list(`${JAN}&q=alan`))).toEqual([world.alan!.id]);
    expect(ids(await list(`${JAN}&q=rotor.obj`))).toEqual([world.alan!.id]);
  });

  it('takes % and _ in a search literally', async () => {
    expect(ids(await list(`${JAN}&q=${encodeURIComponent('50%')}`))).toEqual([world.grace!.id]);
    expect(ids(await list(`${JAN}&q=${encodeURIComponent('%')}`))).toEqual([world.grace!.id]);
    // As a wildcard `_` would find 'rot' in rotor.obj; taken literally, nothing holds 'r_t'.
    expect((await list(`${JAN}&q=r_t`)).total).toBe(0);
    expect(ids(await list(`${JAN}&q=o_F`))).toEqual([world.grace!.id]);
    expect((await list(`${JAN}&q=${encodeURIComponent('\\')}`)).total).toBe(0);
  });

  it('takes from and to as shop days (America/Chicago), both included', async () => {
    const [before, at] = [world.beforeMidnight!.id, world.atMidnight!.id];
    expect(ids(await list('from=2031-03-10&to=2031-03-10'))).toEqual([at]);
    expect(ids(await list('from=2031-03-09&to=2031-03-09'))).toEqual([before]);
    expect(ids(await list('from=2031-03-09'))).toEqual([at, before]);
    expect(ids(await list('to=2030-01-05&from=2030-01-05'))).toEqual([world.grace!.id]);
  });

  it('marks an order late when its ship-by day is over and it has not shipped', async () => {
    const l = await list(JAN);
    const late = l.orders.filter((o) => o.late).map((o) => o.id);
    expect(late).toEqual([world.late!.id]);
  });

  it('refuses a bad query with 400', async () => {
    for (const q of [
      'pageSize=500',
      'page=0',
      'status=lost',
      'from=2030-02-30',
      'to=yesterday',
      `q=${'x'.repeat(201)}`,
    ]) {
      const res = await adminGet(t, `/api/admin/orders?${q}`, cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
  });
});

function zero() {
  return {
    all: 0,
    flagged: 0,
    pending: 0,
    paid: 0,
    queued: 0,
    printing: 0,
    shipped: 0,
    failed: 0,
    cancelled: 0,
  };
}
