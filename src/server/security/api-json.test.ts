import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedInUser } from '../auth/testing.ts';
import { cartItem, uploadBox } from '../checkout/testing.ts';
import { captureLog } from '../testing/log-capture.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { snapshotEverything } from './api-snapshot.ts';

// docs/security.md 18 with hostile bodies: over the 256 KiB limit, nested 100,000 deep, prototype keys,
// duplicated keys, numbers JSON cannot hold, bytes that are not UTF-8. Each is a 4xx `{ error }` (never a
// crash or a 500), pollutes no prototype and changes nothing. And the part that had no test: a query that
// fails answers a generic 500 without SQL, stack or parameters, and the log keeps the parameters out too.

const log = captureLog();
let t: TestApp;
let customer: { cookie: string; user: { id: number } };
let model: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100', LOG_LEVEL: 'info' }, { logStream: log.stream });
  customer = await createLoggedInUser(t);
  model = await uploadBox(t, { id: customer.user.id, cookie: customer.cookie }, 10);
});
afterAll(() => t.close());

const send = (url: string, payload: string | Buffer, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      origin: TEST_ORIGIN,
      ...(cookie ? { cookie } : {}),
    },
    payload,
  });

const CONTACT = '/api/send_contact_email.php';
const contact = (message: string) => JSON.stringify({ name: 'Eve', email: 'eve@example.com', message });

async function stillServing() {
  const res = await t.app.inject({ url: '/healthz' });
  expect(res.statusCode).toBe(200);
}

describe('hostile JSON bodies (docs/security.md 18)', () => {
  it('answers a body over 256 KiB with a 413 { error }, storing nothing', async () => {
    const before = await snapshotEverything(t);
    const res = await send(CONTACT, contact('x'.repeat(256 * 1024)));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The request is too large.' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('answers JSON nested 100,000 deep with a 400, and keeps serving', async () => {
    const before = await snapshotEverything(t);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const payload of [deep, `{"name":"Eve","email":"eve@example.com","message":${deep}}`]) {
      const res = await send(CONTACT, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
      expect(res.body).not.toMatch(/RangeError|stack|at \w+ \(/);
    }
    const checkout = await send(
      '/api/create-checkout-session.php',
      `{"cartItems":[${JSON.stringify(cartItem(model)).replace(/"notes":""/, `"notes":${deep}`)}]}`,
      customer.cookie,
    );
    expect(checkout.statusCode).toBe(400);
    expect(await snapshotEverything(t)).toEqual(before);
    await stillServing();
  });

  it('refuses __proto__ and constructor.prototype keys with 400 and pollutes nothing', async () => {
    const before = await snapshotEverything(t);
    const bodies = [
      '{"__proto__":{"polluted":true},"name":"Eve","email":"eve@example.com","message":"hi"}',
      '{"name":"Eve","email":"eve@example.com","message":"hi","constructor":{"prototype":{"polluted":true}}}',
      '{"name":{"__proto__":{"polluted":true}},"email":"eve@example.com","message":"hi"}',
    ];
    for (const payload of bodies) {
      const res = await send(CONTACT, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ error: 'The request is not valid.' });
    }
    const checkout = await send(
      '/api/create-checkout-session.php',
      `{"cartItems":[{"__proto__":{"isAdmin":true,"cost":0},${JSON.stringify(cartItem(model)).slice(1)}]}`,
      customer.cookie,
    );
    expect(checkout.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('reads a duplicated key once, as its last value, and checks that value', async () => {
    const before = await snapshotEverything(t);
    // The value checked is the value used: a quantity of 1 then 10^9 is refused as 10^9.
    const line = JSON.stringify(cartItem(model)).replace(
      '"quantity":1',
      '"quantity":1,"quantity":1000000000',
    );
    const res = await send('/api/create-checkout-session.php', `{"cartItems":[${line}]}`, customer.cookie);
    expect(res.statusCode).toBe(400);
    // An email given twice, the second not an email: refused, nothing stored or mailed.
    const mail = await send(
      CONTACT,
      '{"name":"Eve","email":"eve@example.com","email":"not an email","message":"hi"}',
    );
    expect(mail.statusCode).toBe(400);
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('answers an empty JSON body with its own 400, and takes a charset parameter', async () => {
    const before = await snapshotEverything(t);
    const empty = await send(CONTACT, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'The request body is empty.' });
    expect(await snapshotEverything(t)).toEqual(before);
    const res = await t.app.inject({
      method: 'POST',
      url: CONTACT,
      headers: { 'content-type': 'application/json; charset=utf-8', origin: TEST_ORIGIN },
      payload: contact('with a charset'),
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a number JSON cannot hold (1e400) with 400, changing nothing', async () => {
    const before = await snapshotEverything(t);
    for (const quantity of ['1e400', '-1e400', '1e-400']) {
      const res = await send(
        '/api/quote',
        `{"modelId":"${model}","strength":3,"quantity":${quantity}}`,
        customer.cookie,
      );
      expect(res.statusCode, quantity).toBe(400);
    }
    expect(await snapshotEverything(t)).toEqual(before);
  });

  it('refuses bytes that are not UTF-8 with 400, storing nothing', async () => {
    const before = await snapshotEverything(t);
    const head = Buffer.from('{"name":"Eve","email":"eve@example.com","message":"caf');
    const tail = Buffer.from('"}');
    for (const bad of [[0xe9], [0xc3], [0xed, 0xa0, 0x80], [0xff, 0xfe]]) {
      const res = await send(CONTACT, Buffer.concat([head, Buffer.from(bad), tail]));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual({ error: 'The request is not valid UTF-8.' });
    }
    expect(await snapshotEverything(t)).toEqual(before);
    // Real UTF-8 is welcome.
    const ok = await send(CONTACT, Buffer.from(contact('café ☕ 東京')));
    expect(ok.statusCode).toBe(200);
  });
});

describe('a query that fails (docs/security.md 18)', () => {
  const GENERIC = { error: 'Something went wrong on our side. Please try again later.' };

  async function withTableAway<T>(table: string, work: () => Promise<T>): Promise<T> {
    await t.database.db.execute(sql.raw(`alter table "${table}" rename to "${table}_away"`));
    try {
      return await work();
    } finally {
      await t.database.db.execute(sql.raw(`alter table "${table}_away" rename to "${table}"`));
    }
  }

  it('answers a generic 500 without SQL, stack or parameters, and logs no parameters', async () => {
    const marker = `secret-${Date.now()}`;
    const logged = log.lines.length;
    const write = await withTableAway('contact_messages', () =>
      send(CONTACT, JSON.stringify({ name: marker, email: 'eve@example.com', message: marker })),
    );
    const read = await withTableAway('orders', () =>
      t.app.inject({ url: '/api/get_orders.php', headers: { cookie: customer.cookie } }),
    );
    for (const res of [write, read]) {
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual(GENERIC);
      expect(res.body).not.toMatch(/select|insert|contact_messages|orders|params|\$1|at \w|\.ts:/i);
      expect(res.body).not.toContain(marker);
    }
    const lines = log.lines.slice(logged);
    // The failure is logged (with the request id), but not the values the query carried.
    expect(lines.some((l) => l.includes('request failed'))).toBe(true);
    for (const l of lines) expect(l).not.toContain(marker);
    await stillServing();
  });
});
