import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createUser, postJson, sessionCookieOf } from '../auth/testing.ts';
import { hashToken } from '../auth/tokens.ts';
import { sessions } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// docs/security.md 8 and 9 from an attacker's side. Fixation: a session id the attacker chose (and planted
// in the victim's browser) is never adopted by the login; the victim gets a fresh one and the planted one
// stays worthless. Theft: a copied session id works from anywhere only until the owner logs out, and then
// it is refused by the server (the row is gone), not merely cleared from the owner's browser.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const checkSession = (cookie: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: '/api/check_session.php', headers: { cookie, ...headers } });

describe('session fixation (docs/security.md 8)', () => {
  it('never adopts a session id the client chose: the login sets a new one, the chosen one stays 401', async () => {
    const { user, password } = await createUser(t.database.db);
    // Well-formed (32 random bytes, as ours are) and malformed planted values alike.
    for (const chosen of [randomBytes(32).toString('base64url'), 'attacker-chosen', 'a'.repeat(43)]) {
      const planted = `session=${chosen}`;
      expect((await checkSession(planted)).statusCode).toBe(401);
      const res = await postJson(
        t,
        '/api/login.php',
        { username: user.username, password },
        { cookie: planted },
      );
      expect(res.statusCode).toBe(200);
      const issued = sessionCookieOf(res)!;
      expect(issued).toMatch(/^session=[A-Za-z0-9_-]{43}$/);
      expect(issued).not.toBe(planted);
      expect((await checkSession(planted)).statusCode).toBe(401);
      expect((await checkSession(issued)).statusCode).toBe(200);
      // No row answers to the planted value.
      const rows = await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(chosen)));
      expect(rows).toEqual([]);
    }
  });

  it("does not let a planted cookie of the attacker's own session carry over into the victim's login", async () => {
    const attacker = await createUser(t.database.db);
    const victim = await createUser(t.database.db);
    const attackerLogin = await postJson(t, '/api/login.php', {
      username: attacker.user.username,
      password: attacker.password,
    });
    const planted = sessionCookieOf(attackerLogin)!;
    const res = await postJson(
      t,
      '/api/login.php',
      { username: victim.user.username, password: victim.password },
      { cookie: planted },
    );
    const issued = sessionCookieOf(res)!;
    expect(issued).not.toBe(planted);
    // The attacker's copy of the planted id is ended, and never became the victim's.
    expect((await checkSession(planted)).statusCode).toBe(401);
    expect((await checkSession(issued)).json()).toMatchObject({ username: victim.user.username });
  });
});

describe('a stolen session id (docs/security.md 9)', () => {
  it('works from another client only until the owner logs out, then 401 on the server for every call', async () => {
    const owner = await createUser(t.database.db);
    const login = await postJson(t, '/api/login.php', {
      username: owner.user.username,
      password: owner.password,
    });
    const cookie = sessionCookieOf(login)!;
    const thief = { 'user-agent': 'curl/8.0', 'x-forwarded-for': '203.0.113.9' };
    const stolen = (url: string) =>
      t.app.inject({ url, remoteAddress: '198.51.100.7', headers: { cookie, ...thief } });
    expect((await stolen('/api/check_session.php')).statusCode).toBe(200);
    expect((await stolen('/api/get_orders.php')).statusCode).toBe(200);
    const sessionsBefore = await countRows(t.database.db, sessions);

    const out = await t.app.inject({ url: '/api/logout.php', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    // The server forgot it: the row is gone, so no copy anywhere works.
    expect(await countRows(t.database.db, sessions)).toBe(sessionsBefore - 1);
    for (const url of [
      '/api/check_session.php',
      '/api/get_orders.php',
      '/api/get_user_role.php',
      '/api/cart',
    ]) {
      const res = await stolen(url);
      expect(res.statusCode, url).toBe(401);
    }
    const change = await postJson(
      t,
      '/api/create-checkout-session.php',
      { cartItems: [] },
      { cookie, ...thief },
      { remoteAddress: '198.51.100.7' },
    );
    expect(change.statusCode).toBe(401);
  });

  it("ends the owner's session when the thief's copy logs out (one id, one server-side session)", async () => {
    const owner = await createUser(t.database.db);
    const login = await postJson(t, '/api/login.php', {
      username: owner.user.username,
      password: owner.password,
    });
    const cookie = sessionCookieOf(login)!;
    const out = await t.app.inject({
      url: '/api/logout.php',
      remoteAddress: '198.51.100.8',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await checkSession(cookie)).statusCode).toBe(401);
  });
});
