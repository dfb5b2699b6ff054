import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedInUser } from '../../auth/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { allMessages, insertMessage } from './testing.ts';

// The messages' routes refuse a logged-out caller (401) and a customer (403), and nothing changes; a
// state change from another origin is refused too (the shared guard test covers the whole table as well).

let t: TestApp;
let admin: { cookie: string };
let customer: { cookie: string };
let id: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
  id = (await insertMessage(t.database.db)).id;
  await insertMessage(t.database.db, { handledAt: new Date() });
});
afterAll(() => t.close());

function calls(headers: Record<string, string>) {
  return [
    t.app.inject({ method: 'GET', url: '/api/admin/messages', headers }),
    t.app.inject({ method: 'GET', url: '/api/admin/messages?handled=1&page=1', headers }),
    ...[true, false].map((value) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/messages/${id}/handled`,
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
        payload: JSON.stringify({ value }),
      }),
    ),
  ];
}

describe('the messages routes', () => {
  it('refuse a logged-out caller with 401 and change nothing', async () => {
    const before = await allMessages(t.database.db);
    for (const res of await Promise.all(calls({}))) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Please log in first.' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(await allMessages(t.database.db)).toEqual(before);
  });

  it('refuse a customer with 403 and change nothing', async () => {
    const before = await allMessages(t.database.db);
    for (const res of await Promise.all(calls({ cookie: customer.cookie }))) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'Admin access required.' });
    }
    expect(await allMessages(t.database.db)).toEqual(before);
  });

  it("refuse an admin's change from another origin with 403 and change nothing", async () => {
    const before = await allMessages(t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/messages/${id}/handled`,
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: admin.cookie },
      payload: JSON.stringify({ value: true }),
    });
    expect(res.statusCode).toBe(403);
    expect(await allMessages(t.database.db)).toEqual(before);
  });
});
