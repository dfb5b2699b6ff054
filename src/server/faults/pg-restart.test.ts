import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLoggedInUser, postJson } from '../auth/testing.ts';
import {
  cartItem,
  makeCustomer,
  orderOfSession,
  paySimulator,
  startCheckout,
  uploadBox,
} from '../checkout/testing.ts';
import { type Database, isDatabaseUnavailable, openPostgres } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { boxStl, filesIn, uploadRequest } from '../models/testing.ts';
import { DATABASE_UNAVAILABLE } from '../plugins/error-handler.ts';
import { captureLog, LEVEL } from '../testing/log-capture.ts';
import type { TestApp } from '../testing/test-app.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { buildAppOn, createScratchDatabase, type ScratchDatabase, viaPort } from './testing.ts';

// PostgreSQL restarted under load (issue #28): the app reaches its own database through a TCP proxy, and a
// "restart" cuts every connection and refuses new ones for a while. Meanwhile every request is a 503 with
// a plain sentence (no SQL, no stack) and /readyz says so; afterwards the same app, never restarted,
// answers again. A server-side kill (pg_terminate_backend) is survived the same way.

const onPostgres = {
  skip: !inject('pgTemplateUrl'),
  meta: { skipReason: 'PostgreSQL only: set DATABASE_URL' },
};

type Answer = { startedAt: number; finishedAt: number; status: number; body: string; retryAfter: unknown };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL restarted under load (PostgreSQL only)', onPostgres, () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let database: Database;
  let t: TestApp;
  let cookie: string;
  const log = captureLog();

  beforeAll(async () => {
    scratch = await createScratchDatabase(inject('pgTemplateUrl'));
    const direct = new URL(scratch.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    database = await openPostgres(viaPort(scratch.url, proxy.port), { migrate: false });
    t = await buildAppOn(
      database,
      { RATE_LIMIT_SCALE: '1000', LOG_LEVEL: 'warn' },
      { logStream: log.stream },
    );
    ({ cookie } = await createLoggedInUser(t));
  });
  afterAll(async () => {
    await proxy?.up();
    await t?.close();
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  /** `workers` loops of GET /api/cart (a session lookup and a read each) until `stop()`. */
  function load(workers: number) {
    const answers: Answer[] = [];
    let running = true;
    const loops = Array.from({ length: workers }, async () => {
      while (running) {
        const startedAt = performance.now();
        const res = await t.app.inject({ method: 'GET', url: '/api/cart', headers: { cookie } });
        answers.push({
          startedAt,
          finishedAt: performance.now(),
          status: res.statusCode,
          body: res.body,
          retryAfter: res.headers['retry-after'],
        });
        await sleep(5);
      }
    });
    return {
      answers,
      stop: async () => {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  const readyz = () => t.app.inject({ method: 'GET', url: '/readyz' });

  function expectNoLeak(answers: Answer[]) {
    for (const a of answers) {
      expect([200, 503]).toContain(a.status);
      expect(a.body).not.toMatch(/select|Failed query|ECONN|terminated|\bat \w|\.ts:\d/i);
    }
  }

  it('answers 503 with a clear sentence while the database is away, /readyz too, then 200 again without a restart', async () => {
    expect((await readyz()).statusCode).toBe(200);
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 20, 'before.stl');
    const checkout = await startCheckout(t, customer, [cartItem(model)]);
    expect(checkout.statusCode).toBe(200);
    const sessionId = checkout.json().id as string;
    const filesBefore = filesIn(path.join(t.dataDir, 'files')).sort();
    const run = load(6);
    await sleep(300);

    const downCalledAt = performance.now();
    await proxy.down();
    const downAt = performance.now();
    await sleep(300);
    const ready = await readyz();
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', error: 'The database is not answering.' });
    // A write meanwhile: refused whole, nothing of it is kept.
    const refused = await postJson(t, '/api/register.php', {
      username: 'during_outage',
      email: 'during-outage@example.com',
      password: 'secret-pw-123',
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ error: DATABASE_UNAVAILABLE });
    // Every kind of request alike: a login, an upload, a checkout, a payment.
    const writes = {
      login: await postJson(t, '/api/login.php', { username: 'nobody', password: 'secret-pw-123' }),
      upload: await t.app.inject(
        uploadRequest({ fileName: 'during.stl', bytes: boxStl(21, 21, 21) }, customer.cookie),
      ),
      checkout: await startCheckout(t, customer, [cartItem(model, { quantity: 3 })]),
      payment: await paySimulator(t, sessionId),
    };
    for (const [what, res] of Object.entries(writes)) {
      expect(res.statusCode, what).toBe(503);
      expect(res.json(), what).toEqual({ error: DATABASE_UNAVAILABLE });
    }
    await sleep(1500);
    const upAt = performance.now();
    await proxy.up();

    // The same app, its pool never rebuilt: ready again once a connection is made.
    await expect.poll(async () => (await readyz()).statusCode, { timeout: 5000 }).toBe(200);
    const recoveredAt = performance.now();
    await sleep(500);
    await run.stop();

    const before = run.answers.filter((a) => a.finishedAt < downCalledAt);
    const during = run.answers.filter((a) => a.startedAt > downAt && a.finishedAt < upAt);
    const after = run.answers.filter((a) => a.startedAt > recoveredAt);
    expect(before.length).toBeGreaterThan(5);
    expect(before.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    expect(during.length).toBeGreaterThan(5);
    for (const a of during) {
      expect(a.status).toBe(503);
      expect(JSON.parse(a.body)).toEqual({ error: DATABASE_UNAVAILABLE });
      expect(a.retryAfter).toBe('5');
    }
    expect(after.length).toBeGreaterThan(5);
    expect(after.filter((a) => a.status !== 200)).toEqual([]);
    expectNoLeak(run.answers);

    // Nothing of the refused registration was kept; it goes through now.
    expect(await t.database.db.select().from(users).where(eq(users.username, 'during_outage'))).toEqual([]);
    const again = await postJson(t, '/api/register.php', {
      username: 'during_outage',
      email: 'during-outage@example.com',
      password: 'secret-pw-123',
    });
    expect(again.statusCode).toBe(201);
    // The refused upload stored no file; the order is still open, and pays now.
    expect(filesIn(path.join(t.dataDir, 'files')).sort()).toEqual(filesBefore);
    expect((await orderOfSession(t, sessionId))?.status).toBe('pending');
    expect((await paySimulator(t, sessionId)).statusCode).toBe(200);
    expect((await orderOfSession(t, sessionId))?.status).toBe('paid');

    // The owner's log names the cause, never a query's text or parameters.
    const unavailable = log.entries().filter((e) => e.msg === 'database or network unavailable');
    expect(unavailable.length).toBeGreaterThan(0);
    expect(
      unavailable.filter((e) => e.level !== LEVEL.error || /select|insert/i.test(JSON.stringify(e))),
    ).toEqual([]);
  }, 30_000);

  it('a transaction cut mid-way fails as "unavailable" and the process lives on', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const cut = database.db.transaction(async (tx) => {
        await tx.select().from(users).limit(1);
        // The connection is checked out (no pool listener on it) when the server goes away.
        await proxy.down();
        await sleep(50);
        await tx.select().from(users).limit(1);
      });
      const err = await cut.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
      await sleep(100);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await proxy.up();
    }
    await expect.poll(async () => (await readyz()).statusCode, { timeout: 5000 }).toBe(200);
  });

  it('survives its connections being killed on the server (pg_terminate_backend) under load', async () => {
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const run = load(6);
      let killed = 0;
      for (let i = 0; i < 3; i++) {
        await sleep(200);
        const { rows } = await admin.query<{ n: number }>(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
           where datname = $1 and pid <> pg_backend_pid()`,
          [scratch.name],
        );
        killed += rows[0]!.n;
      }
      await sleep(300);
      const settledAt = performance.now();
      await sleep(500);
      await run.stop();
      expect(killed).toBeGreaterThan(0);
      expectNoLeak(run.answers);
      for (const a of run.answers.filter((x) => x.status === 503)) {
        expect(JSON.parse(a.body)).toEqual({ error: DATABASE_UNAVAILABLE });
      }
      const after = run.answers.filter((a) => a.startedAt > settledAt);
      expect(after.length).toBeGreaterThan(5);
      expect(after.filter((a) => a.status !== 200)).toEqual([]);
      expect((await readyz()).statusCode).toBe(200);
    } finally {
      await admin.end();
    }
  }, 30_000);
});

describe('isDatabaseUnavailable', () => {
  it('tells a database that cannot be reached from a query that is wrong', () => {
    const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(isDatabaseUnavailable(wrapped(refused))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(shutdown))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    // A bad query or a constraint is the shop's own fault: still a 500.
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('syntax error'), { code: '42601' })))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate'), { code: '23505' })))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
