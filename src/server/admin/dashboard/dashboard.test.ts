import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDashboard } from '../../../shared/admin-dashboard.ts';
import { createLoggedInUser } from '../../auth/testing.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, insertOrder, makeAdmin } from '../orders/testing.ts';
import { dashboardFigures } from './dashboard.ts';

// The dashboard's figures on a seeded shop, at a fixed time: Wednesday 2026-03-11, 3 pm in Chicago (CDT),
// past the 2 pm cut-off. Three weeks: Mondays Feb 23, Mar 2 and Mar 9. Orders paid for real (Stripe) in
// each week and status, one refunded in part, one just before the window, one paid late on a Sunday evening
// (Monday in UTC), a cancelled and a pending one, and a test order (simulator) the figures leave out.

const NOW = new Date('2026-03-11T20:00:00Z');
const MORNING = new Date('2026-03-11T15:00:00Z'); // 10 am: before the cut-off

let t: TestApp;
let admin: { cookie: string };
let customer: { cookie: string };
const id: Record<string, number> = {};

const minuteBefore = (iso: string) => new Date(Date.parse(iso) - 60_000);

async function seed(
  name: string,
  fields: {
    status: string;
    paidAt?: string;
    createdAt?: string;
    shipBy?: string;
    provider?: string;
    refunded?: number;
  },
  items: { color: string; strength: number; quantity: number; lineTotalCents: number }[],
) {
  const userId = (await createLoggedInUser(t)).user.id;
  const total = items.reduce((sum, i) => sum + i.lineTotalCents, 0);
  const order = await insertOrder(
    t.database.db,
    userId,
    {
      status: fields.status,
      paymentProvider: fields.provider ?? 'stripe',
      ...(fields.paidAt
        ? { paidAt: new Date(fields.paidAt), amountPaidCents: total, shipBy: fields.shipBy ?? '2099-01-01' }
        : { paidAt: null, amountPaidCents: null, paymentIntentId: null, shipBy: null }),
      amountRefundedCents: fields.refunded ?? 0,
      createdAt: fields.createdAt ? new Date(fields.createdAt) : minuteBefore(fields.paidAt!),
    },
    items,
  );
  id[name] = order.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
  await seed('A', { status: 'paid', paidAt: '2026-03-10T15:00:00Z', shipBy: '2026-03-11' }, [
    { color: '#dc3545', strength: 5, quantity: 3, lineTotalCents: 5000 },
  ]);
  // Sunday Mar 8, 11:30 pm in Chicago: the week of Mar 2.
  await seed(
    'B',
    { status: 'shipped', paidAt: '2026-03-09T04:30:00Z', shipBy: '2026-03-01', refunded: 1000 },
    [{ color: '#007bff', strength: 3, quantity: 2, lineTotalCents: 3000 }],
  );
  // Monday Feb 23, 1 am in Chicago: the first minutes of the window.
  await seed('C', { status: 'queued', paidAt: '2026-02-23T07:00:00Z', shipBy: '2026-03-10' }, [
    { color: '#007bff', strength: 3, quantity: 1, lineTotalCents: 1200 },
    { color: '#28a745', strength: 2, quantity: 4, lineTotalCents: 800 },
  ]);
  // Sunday Feb 22, 11 pm in Chicago: before the window.
  await seed('D', { status: 'printing', paidAt: '2026-02-23T05:00:00Z', shipBy: '2026-03-12' }, [
    { color: '#343a40', strength: 1, quantity: 1, lineTotalCents: 1000 },
  ]);
  await seed('E', { status: 'cancelled', paidAt: '2026-03-10T16:00:00Z', refunded: 4000 }, [
    { color: '#343a40', strength: 4, quantity: 7, lineTotalCents: 4000 },
  ]);
  await seed('F', { status: 'pending', createdAt: '2026-03-10T17:00:00Z' }, [
    { color: '#343a40', strength: 4, quantity: 7, lineTotalCents: 1500 },
  ]);
  await seed(
    'G',
    { status: 'paid', provider: 'simulator', paidAt: '2026-03-10T18:00:00Z', shipBy: '2026-03-09' },
    [{ color: '#ffc107', strength: 1, quantity: 10, lineTotalCents: 9900 }],
  );
});
afterAll(() => t.close());

describe('the dashboard figures', () => {
  let d: AdminDashboard;
  beforeAll(async () => {
    d = await dashboardFigures(t.database.db, 3, NOW);
  });

  it('count revenue (paid less refunded) and orders per shop week, Monday start, test orders left out', () => {
    expect(d.timeZone).toBe('America/Chicago');
    expect(d.today).toBe('2026-03-11');
    expect(d.weeks).toEqual([
      { start: '2026-02-23', revenueCents: 2000, orders: 1 },
      { start: '2026-03-02', revenueCents: 2000, orders: 1 },
      { start: '2026-03-09', revenueCents: 5000, orders: 1 },
    ]);
    expect(d.totals).toEqual({ revenueCents: 9000, orders: 3, averageOrderCents: 3000 });
    expect(d.testOrders).toEqual({ included: false, inWeeks: 1 });
  });

  it('count the orders placed in the weeks by status, every status listed', () => {
    expect(Object.fromEntries(d.byStatus.map((s) => [s.status, s.orders]))).toEqual({
      pending: 1,
      paid: 1,
      queued: 1,
      printing: 0,
      shipped: 1,
      failed: 0,
      cancelled: 1,
    });
  });

  it('rank colors and strengths by pieces sold', () => {
    expect(d.colors).toEqual([
      { color: '#28a745', pieces: 4 },
      { color: '#007bff', pieces: 3 },
      { color: '#dc3545', pieces: 3 },
    ]);
    expect(d.strengths).toEqual([
      { strength: 2, pieces: 4 },
      { strength: 3, pieces: 3 },
      { strength: 5, pieces: 3 },
    ]);
  });

  it('give the print queue in hours and the orders that will ship late, test orders included', async () => {
    // 0.5 h a piece: A 3, C 5, D 1, G 10 pieces.
    expect(d.queueHours).toBe(9.5);
    expect(d.late).toEqual({
      count: 3,
      cutoff: '14:00',
      orders: [
        { id: id.G, status: 'paid', shipBy: '2026-03-09', reason: 'late' },
        { id: id.C, status: 'queued', shipBy: '2026-03-10', reason: 'late' },
        { id: id.A, status: 'paid', shipBy: '2026-03-11', reason: 'today' },
      ],
    });
    // In the morning, today's order may still leave today.
    const morning = await dashboardFigures(t.database.db, 3, MORNING);
    expect(morning.late.orders.map((o) => o.id)).toEqual([id.G, id.C]);
  });

  it('follow the number of weeks asked', async () => {
    const one = await dashboardFigures(t.database.db, 1, NOW);
    expect(one.weeks).toEqual([{ start: '2026-03-09', revenueCents: 5000, orders: 1 }]);
    expect(one.totals).toEqual({ revenueCents: 5000, orders: 1, averageOrderCents: 5000 });
    const four = await dashboardFigures(t.database.db, 4, NOW);
    expect(four.weeks[0]).toEqual({ start: '2026-02-16', revenueCents: 1000, orders: 1 });
  });
});

describe('GET /api/admin/dashboard', () => {
  it('answers the figures of the last 12 weeks, or as many as asked (1-52)', async () => {
    const res = await adminGet(t, '/api/admin/dashboard', admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((res.json() as AdminDashboard).weeks).toHaveLength(12);
    for (const weeks of [1, 52]) {
      const asked = await adminGet(t, `/api/admin/dashboard?weeks=${weeks}`, admin.cookie);
      expect((asked.json() as AdminDashboard).weeks).toHaveLength(weeks);
    }
  });

  it('refuses a bad number of weeks with 400', async () => {
    for (const weeks of ['0', '53', 'abc', '1.5', '-3', '']) {
      const res = await adminGet(t, `/api/admin/dashboard?weeks=${weeks}`, admin.cookie);
      expect(res.statusCode, weeks).toBe(400);
      expect(res.json()).toEqual({ error: 'Weeks is a whole number from 1 to 52.' });
    }
  });

  it('refuses a logged-out caller (401) and a customer (403)', async () => {
    expect((await adminGet(t, '/api/admin/dashboard', '')).statusCode).toBe(401);
    const refused = await adminGet(t, '/api/admin/dashboard', customer.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Admin access required.' });
  });
});

describe('a shop with test orders only', () => {
  it('counts them, and says so', async () => {
    const shop = await buildTestApp();
    try {
      const buyer = await createLoggedInUser(shop);
      await insertOrder(shop.database.db, buyer.user.id, {
        status: 'paid',
        paidAt: new Date('2026-03-10T15:00:00Z'),
        createdAt: new Date('2026-03-10T14:59:00Z'),
      });
      const d = await dashboardFigures(shop.database.db, 2, NOW);
      expect(d.testOrders).toEqual({ included: true, inWeeks: 1 });
      expect(d.weeks.at(-1)).toEqual({ start: '2026-03-09', revenueCents: 1200, orders: 1 });
      expect(d.colors).toEqual([{ color: '#007bff', pieces: 1 }]);
    } finally {
      await shop.close();
    }
  });
});
