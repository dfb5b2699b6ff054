import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema.ts';
import { linkIn } from '../mail/testing.ts';
import { needsRedis, TEST_REDIS_URL } from '../testing/redis.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { DISTRIBUTED_FAILED_LOGINS_MAX, FAILED_LOGINS_MAX } from './routes.ts';
import { MSG } from './schemas.ts';
import { countRows, createUser, drainedMails, postJson, sessionCookieOf } from './testing.ts';

// The failed-login throttle without a lockout switch (issue 15.1, docs/security.md 6 and promise 9), on the
// in-process store and on Redis: failures from one client throttle that client, never the owner on a
// browser that logged in before or on a client that has not failed; a guesser on many addresses still
// meets a limit, past which new browsers get the step-up (step-up.test.ts). At the default scale, as in
// production.

const stores = [
  ['in process', {}],
  ['Redis', { REDIS_URL: TEST_REDIS_URL }],
] as const;

for (const [store, env] of stores) {
  describe(`failed-login throttle (${store})`, store === 'Redis' ? needsRedis : {}, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(env, { rateLimitNamespace: `test:${randomUUID()}:` });
    });
    afterAll(() => t.close());

    let net = 0;
    /** A /24 of its own for each test, so that the per-IP limits of one do not meet another's. */
    const network = () => `10.${60 + (++net >> 8)}.${net & 255}`;

    const login = (username: string, password: string, from: string, cookie?: string) =>
      postJson(t, '/api/login.php', { username, password }, cookie ? { cookie } : {}, {
        remoteAddress: from,
      });

    const deviceCookieOf = (res: Awaited<ReturnType<typeof login>>) => {
      const c = res.cookies.find((k) => k.name === 'device');
      return c ? `device=${c.value}` : undefined;
    };

    async function fail(username: string, from: string, times: number, cookie?: string): Promise<number[]> {
      const codes: number[] = [];
      for (let i = 0; i < times; i++)
        codes.push((await login(username, 'wrong-password', from, cookie)).statusCode);
      return codes;
    }

    it('5 failures from one address throttle that address: 429 with Retry-After, even for the right password', async () => {
      const { user, password } = await createUser(t.database.db);
      const attacker = `${network()}.1`;
      expect(await fail(user.username, attacker, FAILED_LOGINS_MAX)).toEqual(
        Array(FAILED_LOGINS_MAX).fill(401),
      );
      const before = await countRows(t.database.db, sessions);
      const blocked = await login(user.username, password, attacker);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ error: MSG.loginThrottled });
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(blocked.cookies).toEqual([]);
      expect(await countRows(t.database.db, sessions)).toBe(before);
      // Not a permanent lockout.
      t.advance(retryAfter * 1000);
      expect((await login(user.username, password, attacker)).statusCode).toBe(200);
    });

    it("the issue's lockout no longer works: another address that has not failed logs in at once", async () => {
      const { user, password } = await createUser(t.database.db, {
        username: `alice${randomUUID().slice(0, 8)}`,
      });
      const attacker = `${network()}.1`;
      // Five wrong passwords for alice from one address, and more, by username and by email.
      await fail(user.username, attacker, FAILED_LOGINS_MAX + 2);
      await fail(user.email, attacker, FAILED_LOGINS_MAX + 2);
      expect((await login(user.username, password, attacker)).statusCode).toBe(429);
      // Her right password from her own address: no 429.
      const owner = await login(user.username, password, `${network()}.1`);
      expect(owner.statusCode).toBe(200);
      expect(sessionCookieOf(owner)).toBeDefined();
    });

    it('a browser that logged in before (device cookie) is never locked out by failures elsewhere', async () => {
      const { user, password } = await createUser(t.database.db);
      const home = `${network()}.1`;
      const first = await login(user.username, password, home);
      const device = deviceCookieOf(first);
      expect(device).toMatch(/^device=[\w-]{22}\.[\w-]{43}$/);
      expect(first.cookies.find((c) => c.name === 'device')).toMatchObject({ httpOnly: true, path: '/' });
      // A distributed guesser exhausts every limit a stranger can reach, from the owner's own address too.
      const net = network();
      for (let a = 1; a <= DISTRIBUTED_FAILED_LOGINS_MAX / FAILED_LOGINS_MAX + 2; a++) {
        await fail(user.username, `${net}.${a}`, FAILED_LOGINS_MAX);
      }
      await fail(user.username, home, FAILED_LOGINS_MAX);
      // A new browser gets the step-up (a mailed link), not a session.
      expect((await login(user.username, password, `${network()}.1`)).json()).toEqual({
        error: MSG.loginStepUp,
      });
      // The owner's browser still logs in, from home or from anywhere else.
      expect((await login(user.username, password, home, device)).statusCode).toBe(200);
      expect((await login(user.username, password, `${network()}.9`, device)).statusCode).toBe(200);
    });

    it('a guesser on many addresses meets a limit: past it no guess is told right or wrong (the step-up)', async () => {
      const { user, password } = await createUser(t.database.db);
      const net = network();
      const addresses = DISTRIBUTED_FAILED_LOGINS_MAX / FAILED_LOGINS_MAX + 2;
      const codes: number[] = [];
      const bodies = new Set<string>();
      for (let a = 1; a <= addresses; a++) {
        for (let i = 0; i < FAILED_LOGINS_MAX; i++) {
          const res = await login(user.username, 'wrong-password', `${net}.${a}`);
          codes.push(res.statusCode);
          if (res.statusCode === 429) bodies.add(res.body);
        }
      }
      // The first DISTRIBUTED_FAILED_LOGINS_MAX guesses were answered 401; every later one gets the step-up.
      expect(codes.filter((c) => c === 401)).toHaveLength(DISTRIBUTED_FAILED_LOGINS_MAX);
      expect(codes.slice(DISTRIBUTED_FAILED_LOGINS_MAX).every((c) => c === 429)).toBe(true);
      expect([...bodies]).toEqual([JSON.stringify({ error: MSG.loginStepUp })]);
      // The right password from yet another address without a device cookie gets that same answer
      // (Retry-After kept), and no session: it is mailed a sign-in link instead (step-up.test.ts).
      const fresh = await login(user.username, password, `${network()}.1`);
      expect(fresh.statusCode).toBe(429);
      expect(fresh.json()).toEqual({ error: MSG.loginStepUp });
      expect(Number(fresh.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(sessionCookieOf(fresh)).toBeUndefined();
    });

    it('a stolen device cookie used for guessing meets its own limit; it is no key to another account', async () => {
      const { user, password } = await createUser(t.database.db);
      const other = await createUser(t.database.db);
      const device = deviceCookieOf(await login(user.username, password, `${network()}.1`))!;
      const thief = `${network()}.1`;
      expect(await fail(user.username, thief, FAILED_LOGINS_MAX, device)).toEqual(
        Array(FAILED_LOGINS_MAX).fill(401),
      );
      expect((await login(user.username, password, thief, device)).statusCode).toBe(429);
      // For another account the cookie is no device cookie: that client's own count applies.
      const elsewhere = `${network()}.1`;
      await fail(other.user.username, elsewhere, FAILED_LOGINS_MAX, device);
      expect((await login(other.user.username, other.password, elsewhere, device)).statusCode).toBe(429);
      // A forged entry (a right-looking shape) counts as no cookie.
      const forged = `device=${'A'.repeat(22)}.${'B'.repeat(43)}`;
      const net = network();
      await fail(user.username, `${net}.1`, FAILED_LOGINS_MAX, forged);
      expect((await login(user.username, password, `${net}.1`, forged)).statusCode).toBe(429);
    });

    it('a password reset lets the owner in at once from the client that was throttled, by either name', async () => {
      const { user } = await createUser(t.database.db);
      const from = `${network()}.1`;
      await fail(user.username, from, FAILED_LOGINS_MAX);
      await fail(user.email, from, FAILED_LOGINS_MAX);
      expect((await login(user.email, 'wrong-password', from)).statusCode).toBe(429);
      const asked = await postJson(
        t,
        '/api/request_password_reset.php',
        { email: user.email },
        {},
        { remoteAddress: from },
      );
      expect(asked.statusCode).toBe(200);
      const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1)!;
      const token = linkIn(mail, `${TEST_ORIGIN}/reset-password?token=`).split('token=')[1]!;
      const password = 'brand-new-secret';
      const done = await postJson(
        t,
        '/api/reset_password.php',
        { token, password, confirmPassword: password },
        {},
        { remoteAddress: from },
      );
      expect(done.statusCode).toBe(200);
      expect((await login(user.username, password, from)).statusCode).toBe(200);
      expect((await login(user.email, password, from)).statusCode).toBe(200);
    });

    it('a username and its email keep separate counters: a throttled username does not tell its email', async () => {
      const { user } = await createUser(t.database.db);
      const from = `${network()}.1`;
      await fail(user.username, from, FAILED_LOGINS_MAX);
      expect((await login(user.username, 'wrong-password', from)).statusCode).toBe(429);
      // Its own email and an email no account has answer alike from the same address.
      const own = await login(user.email, 'wrong-password', from);
      const unknown = await login(`nobody-${randomUUID()}@example.com`, 'wrong-password', from);
      expect(own.statusCode).toBe(401);
      expect(own.body).toBe(unknown.body);
      // And an unknown name is throttled exactly like a known one.
      const ghost = `ghost${randomUUID().slice(0, 8)}`;
      const ghostFrom = `${network()}.1`;
      expect(await fail(ghost, ghostFrom, FAILED_LOGINS_MAX + 1)).toEqual([
        ...Array(FAILED_LOGINS_MAX).fill(401),
        429,
      ]);
    });
  });
}
