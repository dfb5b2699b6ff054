import cookiePlugin from '@fastify/cookie';
import rateLimitPlugin from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { sessions } from '../db/schema.ts';
import { errorHandler } from '../plugins/error-handler.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { authRoutes } from './routes.ts';
import { sessionPlugin } from './session-plugin.ts';
import { countRows, createUser, postJson, sessionCookieOf } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

// Each call from its own address: the per-IP limit is tested in rate-limits.test.ts.
let ip = 0;
const login = (body: unknown, headers: Record<string, string> = {}) =>
  postJson(t, '/api/login.php', body, headers, {
    remoteAddress: `10.0.${Math.floor(++ip / 250)}.${ip % 250}`,
  });
const checkSession = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/check_session.php', headers: cookie ? { cookie } : {} });

describe('POST /api/login.php', () => {
  it('logs in by username (any case) or email and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const { user, password } = await createUser(t.database.db, {
      username: 'Marie',
      email: 'marie@example.com',
    });
    for (const name of ['Marie', 'marie', 'MARIE@example.com']) {
      const res = await login({ username: name, password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Login successful.', username: 'Marie' });
      expect(res.headers['cache-control']).toBe('no-store');
      const cookie = res.cookies.find((c) => c.name === 'session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 30 * 24 * 3600 });
      expect(cookie?.domain).toBeUndefined();
      expect(cookie?.secure).toBeUndefined();
      // 32 random bytes: 256 bits (docs/security.md 8).
      expect(Buffer.from(cookie!.value, 'base64url')).toHaveLength(32);
      const check = await checkSession(sessionCookieOf(res));
      expect(check.json()).toEqual({ loggedIn: true, username: user.username, email: user.email });
    }
  });

  it('stores only a hash of the session id', async () => {
    const { user, password } = await createUser(t.database.db);
    const cookie = sessionCookieOf(await login({ username: user.username, password }))!;
    const value = cookie.split('=')[1]!;
    const rows = await t.database.db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === value)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('answers a wrong password and an unknown user with the same 401, no cookie, no session', async () => {
    const { user } = await createUser(t.database.db);
    const before = await countRows(t.database.db, sessions);
    const wrong = await login({ username: user.username, password: 'not-the-password' });
    const unknown = await login({ username: 'nobody-here', password: 'not-the-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid username or password.' });
      expect(res.cookies).toEqual([]);
    }
    expect(wrong.body).toBe(unknown.body);
    expect(await countRows(t.database.db, sessions)).toBe(before);
  });

  it('takes about as long for an unknown user as for a wrong password (a dummy hash is checked)', async () => {
    const { user } = await createUser(t.database.db, { username: 'timing' });
    const time = async (username: string) => {
      const start = performance.now();
      await login({ username, password: 'wrong-password' });
      return performance.now() - start;
    };
    await time('warm-up');
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time(user.username));
      unknown.push(await time(`ghost${i}`));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('refuses the right password of an unverified account with 403 and creates no session', async () => {
    const { user, password } = await createUser(t.database.db, { verified: false });
    const before = await countRows(t.database.db, sessions);
    const res = await login({ username: user.username, password });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'Account not verified. Please check your email for the verification link.',
    });
    expect(res.cookies).toEqual([]);
    expect(await countRows(t.database.db, sessions)).toBe(before);
  });

  it('asks for both fields (400)', async () => {
    for (const body of [{}, { username: 'a' }, { password: 'secret1' }, { username: ' ', password: 'x' }]) {
      const res = await login(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Username and password are required.' });
    }
  });

  it('rotates the session at login: the old cookie stops working (docs/security.md 8)', async () => {
    const { user, password } = await createUser(t.database.db);
    const first = sessionCookieOf(await login({ username: user.username, password }))!;
    const res = await login({ username: user.username, password }, { cookie: first });
    const second = sessionCookieOf(res)!;
    expect(second).not.toBe(first);
    expect((await checkSession(first)).statusCode).toBe(401);
    expect((await checkSession(second)).statusCode).toBe(200);
  });
});

// The failed-login throttle (docs/security.md 6) has its own file: lockout.test.ts.

describe('the session cookie over HTTPS', () => {
  it('is __Host-session, Secure, HttpOnly, SameSite=Lax, Path=/, without Domain', async () => {
    const https = await buildTestApp({ PUBLIC_URL: 'https://shop.example.com' });
    try {
      const { user, password } = await createUser(https.database.db);
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/login.php',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example.com' },
        payload: { username: user.username, password },
      });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === '__Host-session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.domain).toBeUndefined();
      const check = await https.app.inject({
        method: 'GET',
        url: '/api/check_session.php',
        headers: { cookie: `__Host-session=${cookie!.value}` },
      });
      expect(check.json()).toEqual({ loggedIn: true, username: user.username, email: user.email });
    } finally {
      await https.close();
    }
  });
});

describe('authRoutes onLogin', () => {
  it('calls the hook with the user id after a successful login only', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN });
    const ctx = { config, database: t.database, db: t.database.db, now: () => new Date() };
    const calls: number[] = [];
    const app = Fastify();
    await app.register(errorHandler);
    await app.register(cookiePlugin);
    await app.register(rateLimitPlugin, { global: false });
    await app.register(sessionPlugin, { ctx });
    await app.register(authRoutes, {
      ctx,
      onLogin: async (userId, req, reply) => {
        expect(req.url).toBe('/api/login.php');
        expect(reply.statusCode).toBe(200);
        calls.push(userId);
      },
    });
    try {
      const { user, password } = await createUser(t.database.db);
      const inject = (pw: string) =>
        app.inject({
          method: 'POST',
          url: '/api/login.php',
          payload: { username: user.username, password: pw },
        });
      expect((await inject('wrong-password')).statusCode).toBe(401);
      expect(calls).toEqual([]);
      expect((await inject(password)).statusCode).toBe(200);
      expect(calls).toEqual([user.id]);
    } finally {
      await app.close();
    }
  });
});
