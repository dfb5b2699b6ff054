import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../shared/api.ts';
import { createLoggedInUser, createUser } from '../../auth/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { insertOrder, makeAdmin } from '../orders/testing.ts';
import { accountsSnapshot, customerUrl } from './testing.ts';

// docs/security.md 15, 21 and promise 10 for the customers routes: logged out 401, a customer 403, another
// origin 403, and no account, session, history row, token, mail or order changes; the same calls by an
// admin do change it (so the refusals are the guard, not a body the route would refuse anyway).

let t: TestApp;
let customer: Awaited<ReturnType<typeof createLoggedInUser>>;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let targetId: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
  const target = (await createUser(t.database.db, { verified: false })).user;
  targetId = target.id;
  await insertOrder(t.database.db, targetId, { status: 'pending' });
  await createLoggedInUser(t, { isAdmin: true });
});
afterAll(() => t.close());

/** Each customers call with a body that works for an admin, in an order an admin can run them. */
const CALLS: { name: keyof typeof API; action?: string; body?: unknown }[] = [
  { name: 'adminCustomers' },
  { name: 'adminCustomer' },
  { name: 'adminCustomerResend', action: 'resend-verification', body: {} },
  { name: 'adminCustomerVerify', action: 'verify', body: { value: true } },
  { name: 'adminCustomerAdmin', action: 'admin', body: { value: true } },
  { name: 'adminCustomerDisable', action: 'disable', body: { value: true } },
];

function call(c: (typeof CALLS)[number], headers: Record<string, string>) {
  const route = API[c.name];
  const url = c.name === 'adminCustomers' ? route.path : customerUrl(targetId, c.action);
  if (route.method === 'GET') return t.app.inject({ method: 'GET', url, headers });
  return t.app.inject({
    method: route.method,
    url,
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
    payload: JSON.stringify(c.body),
  });
}

describe('the customers routes', () => {
  it('are every customers route of the shared table', () => {
    const inTable = Object.entries(API)
      .filter(([, r]) => r.path.startsWith('/api/admin/customers'))
      .map(([name]) => name);
    expect(inTable.sort()).toEqual(CALLS.map((c) => c.name).sort());
  });

  it('refuse a logged-out caller (401), a customer (403) and another origin (403), changing nothing', async () => {
    const before = await accountsSnapshot(t);
    for (const c of CALLS) {
      const out = await call(c, {});
      expect(out.statusCode, c.name).toBe(401);
      expect(out.json(), c.name).toEqual({ error: 'Please log in first.' });
      const mine = await call(c, { cookie: customer.cookie });
      expect(mine.statusCode, c.name).toBe(403);
      expect(mine.json(), c.name).toEqual({ error: 'Admin access required.' });
      if (API[c.name].method !== 'GET') {
        const evil = await call(c, { cookie: admin.cookie, origin: 'https://evil.example' });
        expect(evil.statusCode, c.name).toBe(403);
        const crossSite = await call(c, { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' });
        expect(crossSite.statusCode, c.name).toBe(403);
      }
    }
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('answer another method with 405 and an Allow header, changing nothing', async () => {
    const before = await accountsSnapshot(t);
    for (const c of CALLS) {
      const route = API[c.name];
      const other = route.method === 'GET' ? 'POST' : 'GET';
      const url = c.name === 'adminCustomers' ? route.path : customerUrl(targetId, c.action);
      const res = await t.app.inject({
        method: other,
        url,
        headers: { cookie: admin.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        ...(other === 'POST' ? { payload: '{}' } : {}),
      });
      expect(res.statusCode, c.name).toBe(405);
      expect(res.headers.allow, c.name).toContain(route.method);
    }
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('let an admin make each call, and each change is on the history', async () => {
    const before = await accountsSnapshot(t);
    for (const c of CALLS) {
      const res = await call(c, { cookie: admin.cookie });
      expect(res.statusCode, `${c.name}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control'], c.name).toBe('no-store');
    }
    const after = await accountsSnapshot(t);
    expect(after).not.toEqual(before);
    expect(after.events).toBe(before.events + 4);
    const detail = (await call(CALLS[1]!, { cookie: admin.cookie })).json();
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual([
      'disabled',
      'admin_granted',
      'verified',
      'verification_sent',
    ]);
    expect(detail.orders[0].status).toBe('cancelled');
  });
});
