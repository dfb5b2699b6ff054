import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../shared/api.ts';
import { createLoggedInUser } from '../../auth/testing.ts';
import { orderFlags, orderItems } from '../../db/schema.ts';
import { captureLog, LEVEL } from '../../testing/log-capture.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { insertOrder, makeAdmin, snapshot } from './testing.ts';

// docs/security.md 15, 16, 21 and promise 10: every /api/admin route of the shared table refuses a caller
// who is logged out (401) or not an admin (403, logged with the user id), and a state change from another
// origin (403), and nothing changes; the same calls by an admin do work. Every answer is no-store.

const log = captureLog();
let t: TestApp;
let admin: { cookie: string; user: { id: number; username: string } };
let customer: { cookie: string; user: { id: number } };
let params: Record<string, number>;

beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'warn' }, { logStream: log.stream });
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
  const order = await insertOrder(t.database.db, customer.user.id, { status: 'queued' });
  const [item] = await t.database.db.select().from(orderItems);
  const [flag] = await t.database.db
    .insert(orderFlags)
    .values({ orderId: order.id, kind: 'address_unreadable', details: 'check it' })
    .returning();
  params = { id: order.id, itemId: item!.id, flagId: flag!.id };
});
afterAll(() => t.close());

/** A valid body for each admin POST, in the table's order an admin can run them one after the other. */
const BODIES: Record<string, unknown> = {
  adminOrderStatus: { status: 'printing' },
  adminOrderNote: { text: 'Checked the file.', visibleToCustomer: true },
  adminOrderRefund: { amountCents: 100, reason: 'goodwill' },
  adminResolveFlag: { note: 'Called the customer.' },
  adminReprint: { reason: 'warped corner' },
  adminItemPrinted: {},
  adminProductionStart: { orderIds: [] },
};

const ORDER_ROUTES = [
  'adminOrders',
  'adminOrdersCsv',
  'adminOrder',
  'adminProduction',
  ...Object.keys(BODIES),
];

const adminRoutes = Object.entries(API).filter(([, r]) => r.path.startsWith('/api/admin/'));

function urlOf(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => String(params[name]));
}

function call(route: (typeof adminRoutes)[number][1], name: string, headers: Record<string, string>) {
  // A route of another admin page gets an empty body: the guard answers before any body is read.
  const body = name === 'adminProductionStart' ? { orderIds: [params.id] } : (BODIES[name] ?? {});
  return route.method === 'GET'
    ? t.app.inject({ method: 'GET', url: urlOf(route.path), headers })
    : t.app.inject({
        method: route.method,
        url: urlOf(route.path),
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
        payload: JSON.stringify(body),
      });
}

describe('the admin routes of the shared table', () => {
  it('are all found: the orders, the CSV, one order, its changes and the production sheet', () => {
    expect(adminRoutes.map(([name]) => name)).toEqual(expect.arrayContaining(ORDER_ROUTES));
  });

  it('refuse a logged-out caller with 401 and change nothing', async () => {
    const before = await snapshot(t);
    for (const [name, r] of adminRoutes) {
      const res = await call(r, name, {});
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual({ error: 'Please log in first.' });
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuse a customer with 403, log each refusal with the user id, and change nothing (21)', async () => {
    const before = await snapshot(t);
    const logged = log.entries().length;
    for (const [name, r] of adminRoutes) {
      const res = await call(r, name, { cookie: customer.cookie });
      expect(res.statusCode, name).toBe(403);
      expect(res.json(), name).toEqual({ error: 'Admin access required.' });
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    expect(await snapshot(t)).toEqual(before);
    const refusals = log
      .entries()
      .slice(logged)
      .filter((e) => e.msg === 'non-admin refused on an admin route');
    expect(refusals).toHaveLength(adminRoutes.length);
    for (const e of refusals) expect(e).toMatchObject({ level: LEVEL.warn, userId: customer.user.id });
    expect(refusals.map((e) => e.url)).toEqual(adminRoutes.map(([, r]) => r.path));
  });

  it("refuse an admin's state change from another origin or a cross-site fetch with 403, changing nothing (15)", async () => {
    const before = await snapshot(t);
    for (const [name, r] of adminRoutes.filter(([, r]) => r.method !== 'GET')) {
      const evil = await call(r, name, { cookie: admin.cookie, origin: 'https://evil.example' });
      expect(evil.statusCode, name).toBe(403);
      const crossSite = await call(r, name, { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' });
      expect(crossSite.statusCode, name).toBe(403);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('answer another method with 405 and an Allow header, changing nothing (16)', async () => {
    const before = await snapshot(t);
    for (const [name, r] of adminRoutes) {
      // A method the path does not serve (settings answer GET and PUT on one path).
      const served = new Set(adminRoutes.filter(([, o]) => o.path === r.path).map(([, o]) => o.method));
      const other = (['POST', 'GET', 'DELETE'] as const).find((m) => !served.has(m))!;
      const res = await t.app.inject({
        method: other,
        url: urlOf(r.path),
        headers: { cookie: admin.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        ...(other !== 'GET' ? { payload: '{}' } : {}),
      });
      expect(res.statusCode, name).toBe(405);
      expect(res.headers.allow, name).toContain(r.method);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('let an admin make every one of these calls (promise 10: the refusals above are the guard)', async () => {
    for (const [name, r] of adminRoutes.filter(([name]) => ORDER_ROUTES.includes(name))) {
      const res = await call(r, name, { cookie: admin.cookie });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    // Each change is on the order's timeline with who made it, when, and from what to what.
    const detail = await t.app.inject({
      url: `/api/admin/orders/${params.id}`,
      headers: { cookie: admin.cookie },
    });
    const timeline = detail.json().timeline as { kind: string; actorName: string | null; at: string }[];
    const byAdmin = timeline.filter((e) => e.actorName === admin.user.username);
    expect(byAdmin.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['status', 'note', 'mail', 'flag', 'reprint', 'printed']),
    );
    expect(timeline.find((e) => e.kind === 'status')).toMatchObject({
      fromStatus: 'queued',
      toStatus: 'printing',
      actor: 'admin',
      actorName: admin.user.username,
    });
    const refund = detail.json().refunds[0];
    expect(refund).toMatchObject({ amountCents: 100, status: 'succeeded', actorName: admin.user.username });
    for (const e of byAdmin) expect(Date.parse(e.at)).not.toBeNaN();
  });
});
