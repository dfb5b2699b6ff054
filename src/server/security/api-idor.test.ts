import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { boxStl, cookieFrom, uploadRequest } from '../models/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { bodyFor, buildWorld, idOf, madeUpId, type World } from './api-fixtures.ts';
import { fillPath, liveRoutes, type SeenRoute } from './api-routes.ts';
import { snapshotEverything } from './api-snapshot.ts';

// docs/security.md 20 and 21 as a sweep over every route with an id in its path, read from the app: customer
// B (and a stranger with no cookie) asking for customer A's model, file, preview, view, order, order again,
// cancel... gets exactly the answer a made-up id gets (404, or 401 where a login is needed), so an id's
// existence is not told; every /api/admin/... route refuses a customer with 403; nothing changes.

const seen = vi.hoisted(() => [] as SeenRoute[]);
vi.mock('fastify', async (original) =>
  (await import('./api-routes.ts')).recordingFastify(await original(), seen),
);

/** Routes whose id is itself the key, and why that is safe. */
const CAPABILITY_ROUTES: Record<string, string> = {
  // The simulator's hosted page, like Stripe's: its 192-bit random session id is what opens it; it shows
  // a stranger nothing of the customer's (no prefill), see the test below.
  '/api/pay/simulator/:id': 'hosted payment page opened by its random session id',
  '/api/pay/simulator/:id/pay': 'hosted payment page opened by its random session id',
};

let t: TestApp;
let world: World;
let routes: SeenRoute[];

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  world = await buildWorld(t);
  routes = liveRoutes(seen).filter((r) => r.url.includes(':') && r.method !== 'HEAD');
});
afterAll(() => t.close());

function request(route: SeenRoute, url: string, cookie: string | undefined): InjectOptions {
  const body = bodyFor(world, route.method, route.url);
  const send = route.method !== 'GET' && body !== undefined;
  return {
    method: route.method as 'GET',
    url,
    headers: {
      origin: TEST_ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(send ? { 'content-type': 'application/json' } : {}),
    },
    ...(send ? { payload: JSON.stringify(body) } : {}),
  };
}

const aUrl = (route: SeenRoute) => fillPath(route.url, (name, path) => idOf(world, name, path));
const madeUpUrl = (route: SeenRoute) => fillPath(route.url, (name, path) => madeUpId(name, path));

describe('ids of another account (docs/security.md 20, 21)', () => {
  it('finds the routes with an id on the server: models, orders, and the admin calls', () => {
    const urls = routes.map((r) => r.url);
    for (const url of [
      '/api/models/:id/file',
      '/api/models/:id/preview.png',
      '/api/models/:id/view.glb',
      '/api/orders/:id/order-again',
      '/api/admin/orders/:id/notes',
      '/api/admin/customers/:id',
    ]) {
      expect(urls).toContain(url);
    }
    // Every one has A's id to try (idOf throws for a route it does not know).
    for (const r of routes) expect(() => aUrl(r), r.url).not.toThrow();
  });

  it("answers B and a stranger for A's ids exactly as for an id that does not exist, changing nothing", async () => {
    const before = await snapshotEverything(t);
    const customerRoutes = routes.filter(
      (r) => !r.url.startsWith('/api/admin/') && !(r.url in CAPABILITY_ROUTES),
    );
    expect(customerRoutes.length).toBeGreaterThanOrEqual(8);
    for (const route of customerRoutes) {
      for (const [who, cookie] of [
        ['B', world.b.cookie],
        ['a stranger', undefined],
      ] as const) {
        const name = `${route.method} ${route.url} as ${who}`;
        const theirs = await t.app.inject(request(route, aUrl(route), cookie));
        const none = await t.app.inject(request(route, madeUpUrl(route), cookie));
        expect([401, 404], `${name}: ${theirs.body}`).toContain(theirs.statusCode);
        if (who === 'B') expect(theirs.statusCode, name).toBe(404);
        expect(theirs.statusCode, name).toBe(none.statusCode);
        expect(theirs.json(), name).toEqual(none.json());
      }
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it("answers another browser for a visitor's model as for a model that does not exist", async () => {
    const upload = async () => {
      const res = await t.app.inject(uploadRequest({ fileName: 'visitor.stl', bytes: boxStl(12, 12, 12) }));
      expect(res.statusCode).toBe(201);
      return { id: res.json().id as string, cookie: cookieFrom(res) };
    };
    const owner = await upload();
    const other = await upload();
    const before = await snapshotEverything(t);
    const modelRoutes = routes.filter((r) => r.url.startsWith('/api/models/:id'));
    expect(modelRoutes.length).toBeGreaterThanOrEqual(6);
    for (const route of modelRoutes) {
      for (const cookie of [other.cookie, world.b.cookie]) {
        const theirs = await t.app.inject(request(route, route.url.replace(':id', owner.id), cookie));
        const none = await t.app.inject(request(route, madeUpUrl(route), cookie));
        expect(theirs.statusCode, route.url).toBe(404);
        expect(theirs.json(), route.url).toEqual(none.json());
      }
    }
    expect(await snapshotEverything(t)).toEqual(before);
    // The owner's browser does see it.
    const own = await t.app.inject({ url: `/api/models/${owner.id}`, headers: { cookie: owner.cookie } });
    expect(own.statusCode).toBe(200);
  });

  it('refuses a customer, the owner A too, on every admin route with an id (403), changing nothing', async () => {
    const before = await snapshotEverything(t);
    const adminRoutes = routes.filter((r) => r.url.startsWith('/api/admin/'));
    expect(adminRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of adminRoutes) {
      for (const cookie of [world.a.cookie, world.b.cookie]) {
        const res = await t.app.inject(request(route, aUrl(route), cookie));
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'Admin access required.' });
      }
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it("leaves A's orders, notes, models and checkout out of what B lists or asks by query", async () => {
    const note = `visible note ${Date.now()}`;
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${world.ids.paidOrder}/notes`,
      headers: { cookie: world.admin.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: note, visibleToCustomer: true }),
    });
    expect(added.statusCode).toBe(200);
    const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
    // A sees the note on My Orders: the test would notice it leaking.
    expect((await get('/api/get_orders.php', world.a.cookie)).body).toContain(note);
    const before = await snapshotEverything(t);
    for (const url of ['/api/get_orders.php', '/api/models', '/api/cart']) {
      const res = await get(url, world.b.cookie);
      expect(res.statusCode, url).toBe(200);
      for (const secret of [note, world.ids.model, '1 Main St']) expect(res.body, url).not.toContain(secret);
    }
    const status = (id: string) => get(`/api/checkout/status?session_id=${id}`, world.b.cookie);
    const theirs = await status(world.ids.simulatorSession);
    const none = await status(`cs_sim_${'y'.repeat(32)}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(none.json());
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it("shows the simulator's page to whoever holds its id, but none of A's details to B", async () => {
    const url = `/api/pay/simulator/${world.ids.simulatorSession}`;
    const mine = await t.app.inject({ url, headers: { cookie: world.a.cookie } });
    const theirs = await t.app.inject({ url, headers: { cookie: world.b.cookie } });
    expect(mine.json().prefill).toMatchObject({ line1: '1 Main St' });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().prefill).toBeNull();
    expect(theirs.body).not.toContain('1 Main St');
  });

  it('serves A every one of those reads (the 404s above are the ownership check)', async () => {
    for (const route of routes.filter((r) => r.method === 'GET' && !r.url.startsWith('/api/admin/'))) {
      const res = await t.app.inject(request(route, aUrl(route), world.a.cookie));
      expect(res.statusCode, `${route.url}: ${res.body.slice(0, 200)}`).toBeLessThan(300);
    }
  });
});
