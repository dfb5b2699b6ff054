import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '../../shared/api.ts';
import { users } from '../db/schema.ts';
import { boxStl, multipartBody } from '../models/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { bodyFor, buildWorld, idOf, type World } from './api-fixtures.ts';
import { fillPath, type SeenRoute, stateChangingRoutes } from './api-routes.ts';
import { snapshotEverything } from './api-snapshot.ts';

// docs/security.md 15 as a sweep: every state-changing route the server registers (read from the app, not
// listed by hand), called with an admin's valid session and a body the route would take, is refused with
// 403 when the Origin is another site's or the browser says Sec-Fetch-Site: cross-site, and no table, mail
// or stored file changes. A route added later without the check fails here.

const seen = vi.hoisted(() => [] as SeenRoute[]);
vi.mock('fastify', async (original) =>
  (await import('./api-routes.ts')).recordingFastify(await original(), seen),
);

/** What may be called cross-site, and why. */
const CROSS_SITE_ALLOWED: Record<string, string> = {
  // Called by Stripe's servers, which send no browser Origin and no cookie; signed instead (case 36).
  '/api/payments/stripe/webhook': 'payment provider webhook, checked by its signature',
};

const REFUSED = { error: 'Cross-site request refused.' };

let t: TestApp;
let world: World;
let routes: SeenRoute[];

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  world = await buildWorld(t);
  routes = stateChangingRoutes(seen).filter((r) => !(r.url in CROSS_SITE_ALLOWED));
});
afterAll(() => t.close());

function request(route: SeenRoute, headers: Record<string, string>): InjectOptions {
  const url = fillPath(route.url, (name, path) => idOf(world, name, path));
  if (route.url === API.upload.path) {
    const body = multipartBody([{ fileName: 'csrf.stl', bytes: boxStl(10, 10, 10) }]);
    return {
      method: route.method as 'POST',
      url,
      headers: { cookie: world.admin.cookie, 'content-type': body.contentType, ...headers },
      payload: body.payload,
    };
  }
  const body = bodyFor(world, route.method, route.url);
  return {
    method: route.method as 'POST',
    url,
    headers: {
      cookie: world.admin.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  };
}

describe('CSRF on every state-changing route (docs/security.md 15)', () => {
  it('finds the routes on the server: every POST, PUT and DELETE of the shared table, and more', () => {
    const found = new Set(stateChangingRoutes(seen).map((r) => `${r.method} ${r.url}`));
    const table = Object.values(API)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    expect(table.filter((r) => !found.has(r))).toEqual([]);
    // Routes outside the table are swept too (logout by POST, for one).
    expect(found.has('POST /api/logout.php')).toBe(true);
    expect(routes.length).toBeGreaterThanOrEqual(table.length);
  });

  it('sees a change: a row changed, a row added, a file written (else "nothing changed" proves nothing)', async () => {
    const before = await snapshotEverything(t);
    await t.database.db.update(users).set({ username: 'renamed' }).where(eq(users.id, world.b.id));
    expect(await snapshotEverything(t)).not.toEqual(before);
    await t.database.db.update(users).set({ username: world.b.username }).where(eq(users.id, world.b.id));
    expect(await snapshotEverything(t)).toEqual(before);
    fs.writeFileSync(path.join(t.dataDir, 'probe.txt'), 'x');
    expect(await snapshotEverything(t)).not.toEqual(before);
    fs.rmSync(path.join(t.dataDir, 'probe.txt'));
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it("refuses an admin's call from another origin with 403, changing no table, mail or file", async () => {
    const before = await snapshotEverything(t);
    for (const route of routes) {
      const res = await t.app.inject(request(route, { origin: 'https://evil.example' }));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json(), `${route.method} ${route.url}`).toEqual(REFUSED);
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('refuses a cross-site fetch without Origin (Sec-Fetch-Site) with 403, changing nothing', async () => {
    const before = await snapshotEverything(t);
    for (const route of routes) {
      for (const site of ['cross-site', 'same-site']) {
        const res = await t.app.inject(request(route, { 'sec-fetch-site': site }));
        expect(res.statusCode, `${route.method} ${route.url} ${site}`).toBe(403);
        expect(res.json(), `${route.method} ${route.url}`).toEqual(REFUSED);
      }
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('treats a look-alike origin (the shop as a prefix, another scheme or port) as foreign', async () => {
    const before = await snapshotEverything(t);
    const route = routes.find((r) => r.url === API.adminOrderNote.path)!;
    for (const origin of [
      `${TEST_ORIGIN}.evil.example`,
      TEST_ORIGIN.replace('http:', 'https:'),
      `${TEST_ORIGIN}:8080`,
      'null',
    ]) {
      const res = await t.app.inject(request(route, { origin }));
      expect(res.statusCode, origin).toBe(403);
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('lets the webhook through from anywhere only because it is signed: a forged one is refused', async () => {
    const before = await snapshotEverything(t);
    // This app runs the simulator: the Stripe webhook path answers 404 and does nothing.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/json',
        'stripe-signature': 't=1,v1=forged',
      },
      payload: JSON.stringify({ type: 'checkout.session.completed' }),
    });
    expect([400, 404]).toContain(res.statusCode);
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('sends each of these calls on from the shop origin (the 403s above are the origin check)', async () => {
    // Last, and the session's own calls after the rest: these calls do change things (logging out too).
    const sessionCalls = new Set<string>([API.login.path, API.logout.path, API.signInLink.path]);
    const ordered = [
      ...routes.filter((r) => !sessionCalls.has(r.url)),
      ...routes.filter((r) => sessionCalls.has(r.url)),
    ];
    for (const route of ordered) {
      const res = await t.app.inject(request(route, { origin: TEST_ORIGIN }));
      const name = `${route.method} ${route.url}: ${res.body}`;
      expect(res.body, name).not.toContain(REFUSED.error);
      // The admin's session would have passed: each back-office call is carried out.
      if (route.url.startsWith('/api/admin/')) expect(res.statusCode, name).toBeLessThan(300);
    }
  });
});
