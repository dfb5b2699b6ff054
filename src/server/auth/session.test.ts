import { Writable } from 'node:stream';
import cookiePlugin from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { sessions } from '../db/schema.ts';
import { errorHandler } from '../plugins/error-handler.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { getSessionUser, requireAdmin, requireUser, sessionPlugin } from './session-plugin.ts';
import { SESSION_IDLE_MS, SESSION_MAX_AGE_MS } from './session-service.ts';
import { createLoggedInUser, postJson } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('GET /api/check_session.php', () => {
  it('answers {loggedIn:false}: 200 without a cookie, 401 with a made-up one (and drops it)', async () => {
    const none = await get('/api/check_session.php');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ loggedIn: false });
    const fake = await get('/api/check_session.php', `session=${'A'.repeat(43)}`);
    expect(fake.statusCode).toBe(401);
    expect(fake.json()).toEqual({ loggedIn: false });
    expect(fake.cookies.find((c) => c.name === 'session')?.value).toBe('');
  });

  it('answers {loggedIn:true, username} with a session, never cached', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    const res = await get('/api/check_session.php', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ loggedIn: true, username: user.username, email: user.email });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/get_user_role.php', () => {
  it('reads isAdmin from the database, and 401 when logged out', async () => {
    const customer = await createLoggedInUser(t);
    const admin = await createLoggedInUser(t, { isAdmin: true });
    expect((await get('/api/get_user_role.php', customer.cookie)).json()).toEqual({ isAdmin: false });
    expect((await get('/api/get_user_role.php', admin.cookie)).json()).toEqual({ isAdmin: true });
    const out = await get('/api/get_user_role.php');
    expect(out.statusCode).toBe(401);
    expect(out.json()).toEqual({ isAdmin: false, error: 'Please log in first.' });
  });
});

describe('GET /api/logout.php', () => {
  it('ends the session, clears the cookie, and the old cookie then gives 401 (docs/security.md 9)', async () => {
    const { cookie } = await createLoggedInUser(t);
    const res = await get('/api/logout.php', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully.' });
    const cleared = res.cookies.find((c) => c.name === 'session');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(401);
  });

  it('answers 200 when already logged out, and accepts POST from the shop origin too', async () => {
    expect((await get('/api/logout.php')).statusCode).toBe(200);
    const { cookie } = await createLoggedInUser(t);
    const res = await postJson(t, '/api/logout.php', {}, { cookie });
    expect(res.statusCode).toBe(200);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(401);
  });

  it('is not ended by a link or an image on another site (a cross-site GET: 403), but is by a typed URL', async () => {
    const { cookie } = await createLoggedInUser(t);
    for (const site of ['cross-site', 'same-site']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/logout.php',
        headers: { cookie, 'sec-fetch-site': site },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'Cross-site request refused.' });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect((await get('/api/check_session.php', cookie)).statusCode).toBe(200);
    }
    const typed = await t.app.inject({
      method: 'GET',
      url: '/api/logout.php',
      headers: { cookie, 'sec-fetch-site': 'none' },
    });
    expect(typed.statusCode).toBe(200);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(401);
  });

  it('ends only the session of the cookie it was given', async () => {
    const a = await createLoggedInUser(t);
    const b = await createLoggedInUser(t);
    await get('/api/logout.php', a.cookie);
    expect((await get('/api/check_session.php', b.cookie)).statusCode).toBe(200);
  });
});

describe('session lifetime (docs/security.md 9)', () => {
  it('ends after 7 idle days, and the row is deleted', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    t.advance(SESSION_IDLE_MS - 60_000);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(200);
    // That request counted as activity: another almost-idle week is fine.
    t.advance(SESSION_IDLE_MS - 60_000);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(200);
    t.advance(SESSION_IDLE_MS + 1);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it('ends 30 days after login however active it is', async () => {
    const { cookie } = await createLoggedInUser(t);
    const day = 24 * 3600_000;
    // Active every 3 days (well inside the idle timeout) for 27 days...
    for (let i = 0; i < 9; i++) {
      t.advance(3 * day);
      expect((await get('/api/check_session.php', cookie)).statusCode).toBe(200);
    }
    // ...and over 30 days after login it ends.
    t.advance(SESSION_MAX_AGE_MS - 27 * day + 1);
    expect((await get('/api/check_session.php', cookie)).statusCode).toBe(401);
  });

  it('writes last_seen_at at most every few minutes, not on every request', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    const seen = async () =>
      (
        await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))
      )[0]?.lastSeenAt.getTime();
    const first = await seen();
    t.advance(60_000);
    await get('/api/check_session.php', cookie);
    expect(await seen()).toBe(first);
    t.advance(5 * 60_000);
    await get('/api/check_session.php', cookie);
    expect(await seen()).toBeGreaterThan(first!);
  });
});

describe('requireUser, requireAdmin and getSessionUser for other features', () => {
  it('let a logged-in user, an admin or anyone through as each route says; a refused admin call is logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_ORIGIN });
    const ctx = { config, database: t.database, db: t.database.db, now: () => new Date() };
    const app = Fastify({ logger: { level: 'warn', stream } });
    await app.register(errorHandler);
    await app.register(cookiePlugin);
    await app.register(sessionPlugin, { ctx });
    // In an encapsulated child, as feature plugins are.
    await app.register(async (child) => {
      child.get('/mine', { preHandler: requireUser }, async (req) => ({ id: req.user?.id }));
      child.get('/admin', { preHandler: requireAdmin }, async (req) => ({ admin: req.user?.username }));
      child.get('/maybe', async (req) => ({ user: (await getSessionUser(req))?.username ?? null }));
    });
    try {
      const customer = await createLoggedInUser(t);
      const admin = await createLoggedInUser(t, { isAdmin: true });
      const call = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });

      expect((await call('/mine')).statusCode).toBe(401);
      expect((await call('/mine')).json()).toEqual({ error: 'Please log in first.' });
      expect((await call('/mine', customer.cookie)).json()).toEqual({ id: customer.user.id });

      expect((await call('/admin')).statusCode).toBe(401);
      const refused = await call('/admin', customer.cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'Admin access required.' });
      expect(lines.some((l) => l.includes('non-admin refused') && l.includes(String(customer.user.id)))).toBe(
        true,
      );
      expect((await call('/admin', admin.cookie)).json()).toEqual({ admin: admin.user.username });

      expect((await call('/maybe')).json()).toEqual({ user: null });
      expect((await call('/maybe', customer.cookie)).json()).toEqual({ user: customer.user.username });
    } finally {
      await app.close();
    }
  });
});
