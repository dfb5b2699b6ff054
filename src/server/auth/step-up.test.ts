import { randomUUID } from 'node:crypto';
import cookiePlugin from '@fastify/cookie';
import rateLimitPlugin from '@fastify/rate-limit';
import { and, eq, isNull, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { emailTokens, outbox, sessions, users } from '../db/schema.ts';
import { linkIn, type ParsedMail } from '../mail/testing.ts';
import { errorHandler } from '../plugins/error-handler.ts';
import { needsRedis, TEST_REDIS_URL } from '../testing/redis.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { authRoutes, DISTRIBUTED_FAILED_LOGINS_MAX, FAILED_LOGINS_MAX } from './routes.ts';
import { MSG } from './schemas.ts';
import { sessionPlugin } from './session-plugin.ts';
import { mailSignInLink, SIGN_IN_MAILS_PER_HOUR, SIGN_IN_TOKEN_TTL_MS } from './sign-in-link-service.ts';
import { countRows, createUser, drainedMails, postJson, sessionCookieOf } from './testing.ts';

// The step-up instead of a lockout (issue #28, docs/security.md 6 and promise 9): once strangers on many
// addresses have used up a name's failed logins, a browser without a device cookie is not locked out for
// the hour. Its attempt is still checked (after its own per-client limit) but logs nobody in and gets one
// answer, whatever the password and whether the name exists; a right password mails the account a
// one-time link that logs that browser in. In process and on Redis, at the default scale.

const stores = [
  ['in process', {}],
  ['Redis', { REDIS_URL: TEST_REDIS_URL }],
] as const;

const LINK = `${TEST_ORIGIN}/sign-in?token=`;

for (const [store, env] of stores) {
  describe(`the login step-up (${store})`, store === 'Redis' ? needsRedis : {}, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(env, { rateLimitNamespace: `test:${randomUUID()}:` });
    });
    afterAll(() => t.close());

    let net = 0;
    /** A /24 of its own each time: per-address limits of one client never meet another's. */
    const network = () => `10.${90 + (++net >> 8)}.${net & 255}`;
    const newBrowser = () => `${network()}.1`;

    const login = (username: string, password: string, from: string, cookie?: string) =>
      postJson(t, '/api/login.php', { username, password }, cookie ? { cookie } : {}, {
        remoteAddress: from,
      });
    const openLink = (token: string, from = newBrowser()) =>
      postJson(t, '/api/sign-in-link', { token }, {}, { remoteAddress: from });
    const checkSession = (cookie: string) =>
      t.app.inject({ method: 'GET', url: '/api/check_session.php', headers: { cookie } });
    const deviceCookieOf = (res: Awaited<ReturnType<typeof login>>) => {
      const c = res.cookies.find((k) => k.name === 'device');
      return c ? `device=${c.value}` : undefined;
    };

    /** Strangers on ten addresses, five wrong passwords each: the name's shared limit is full. */
    async function attack(name: string) {
      const attackers = network();
      const codes: number[] = [];
      for (let a = 1; a <= DISTRIBUTED_FAILED_LOGINS_MAX / FAILED_LOGINS_MAX; a++) {
        for (let i = 0; i < FAILED_LOGINS_MAX; i++) {
          codes.push((await login(name, 'wrong-password', `${attackers}.${a}`)).statusCode);
        }
      }
      expect(codes).toEqual(Array(DISTRIBUTED_FAILED_LOGINS_MAX).fill(401));
    }

    /** The step-up answer, the same for every password and every name. */
    function expectStepUp(res: Awaited<ReturnType<typeof login>>) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: MSG.loginStepUp });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(res.cookies).toEqual([]);
    }

    const mailsTo = async (email: string) =>
      (await drainedMails(t)).filter((m) => m.headers.to === email && m.text.includes(LINK));
    const tokenOf = (mail: ParsedMail) => linkIn(mail, LINK).split('token=')[1]!;

    it("mails the owner's right password a link that logs that browser in and trusts it while the attack goes on", async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      const sessionsBefore = await countRows(t.database.db, sessions);
      const home = newBrowser();
      const answer = await login(user.username, password, home);
      expectStepUp(answer);
      expect(await countRows(t.database.db, sessions)).toBe(sessionsBefore);

      const [mail, ...more] = await mailsTo(user.email);
      expect(more).toEqual([]);
      expect(mail!.headers.subject).toBe('Your sign-in link');
      expect(mail!.text).toContain('from a new browser');
      expect(mail!.text).toContain(`${TEST_ORIGIN}/forgot-password`);
      // Where it came from is "a new browser", never the address.
      expect(mail!.text).not.toContain(home);
      expect(mail!.html).not.toContain(home);

      const signedIn = await openLink(tokenOf(mail!), home);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toEqual({ message: MSG.loggedIn, username: user.username });
      expect(signedIn.headers['cache-control']).toBe('no-store');
      const cookie = sessionCookieOf(signedIn)!;
      expect((await checkSession(cookie)).json()).toMatchObject({ loggedIn: true, username: user.username });
      const device = deviceCookieOf(signedIn);
      expect(device).toMatch(/^device=[\w-]{22}\.[\w-]{43}$/);

      // The attack goes on; the browser that used the link logs in with its password like any it trusts.
      for (let i = 0; i < FAILED_LOGINS_MAX; i++) {
        expectStepUp(await login(user.username, 'wrong-password', newBrowser()));
      }
      const again = await login(user.username, password, home, device);
      expect(again.statusCode).toBe(200);
      expect(sessionCookieOf(again)).toBeDefined();
      // Any other new browser still meets the step-up.
      expectStepUp(await login(user.username, password, newBrowser()));
    });

    it('answers a wrong password and an unknown name under attack exactly as the right one, and mails nothing', async () => {
      const { user, password } = await createUser(t.database.db);
      const ghost = `ghost${randomUUID().slice(0, 8)}`;
      await attack(user.username);
      await attack(ghost);
      const right = await login(user.username, password, newBrowser());
      const wrong = await login(user.username, 'wrong-password', newBrowser());
      const unknown = await login(ghost, password, newBrowser());
      for (const res of [right, wrong, unknown]) expectStepUp(res);
      expect(wrong.body).toBe(right.body);
      expect(unknown.body).toBe(right.body);
      expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(right.headers).sort());
      // Only the right password mailed a link.
      expect(await mailsTo(user.email)).toHaveLength(1);
    });

    it('keeps the per-client limit first, and counts a right password there too (no oracle in the count)', async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      // One right password and four wrong ones from one browser: the sixth attempt is throttled exactly as
      // after five wrong ones, so the count tells nothing about which was right.
      const from = newBrowser();
      expectStepUp(await login(user.username, password, from));
      for (let i = 0; i < FAILED_LOGINS_MAX - 1; i++) {
        expectStepUp(await login(user.username, 'wrong-password', from));
      }
      const throttled = await login(user.username, password, from);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json()).toEqual({ error: MSG.loginThrottled });
      const allWrong = newBrowser();
      for (let i = 0; i < FAILED_LOGINS_MAX; i++) {
        expectStepUp(await login(user.username, 'wrong-password', allWrong));
      }
      expect((await login(user.username, password, allWrong)).body).toBe(throttled.body);
      // The throttled attempt was not checked: no second mail.
      expect(await mailsTo(user.email)).toHaveLength(1);
    });

    it(`mails at most ${SIGN_IN_MAILS_PER_HOUR} links an hour per account, answering every attempt alike; only the newest works`, async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      for (let i = 0; i < SIGN_IN_MAILS_PER_HOUR + 2; i++) {
        expectStepUp(await login(user.username, password, newBrowser()));
      }
      const mails = await mailsTo(user.email);
      expect(mails).toHaveLength(SIGN_IN_MAILS_PER_HOUR);
      const live = await t.database.db
        .select()
        .from(emailTokens)
        .where(
          and(
            eq(emailTokens.userId, user.id),
            eq(emailTokens.purpose, 'sign-in'),
            isNull(emailTokens.usedAt),
          ),
        );
      expect(live).toHaveLength(1);
      // A newer mail replaces the older links.
      const older = await openLink(tokenOf(mails[0]!));
      expect(older.statusCode).toBe(400);
      expect(older.json()).toEqual({ error: MSG.signInLinkFailed });
      expect(older.cookies).toEqual([]);
      expect((await openLink(tokenOf(mails.at(-1)!))).statusCode).toBe(200);
    });

    it('lets a link work once and for 15 minutes; a made-up or missing token is refused alike', async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      expectStepUp(await login(user.username, password, newBrowser()));
      const token = tokenOf((await mailsTo(user.email))[0]!);
      const sessionsBefore = await countRows(t.database.db, sessions);
      expect((await openLink(token)).statusCode).toBe(200);
      const replay = await openLink(token);
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ error: MSG.signInLinkFailed });
      expect(await countRows(t.database.db, sessions)).toBe(sessionsBefore + 1);

      expectStepUp(await login(user.username, password, newBrowser()));
      const late = tokenOf((await mailsTo(user.email))[1]!);
      t.advance(SIGN_IN_TOKEN_TTL_MS + 1000);
      expect((await openLink(late)).json()).toEqual({ error: MSG.signInLinkFailed });

      for (const body of [{ token: 'A'.repeat(43) }, { token: `${token}x` }, { token: '' }, {}]) {
        const res = await postJson(t, '/api/sign-in-link', body, {}, { remoteAddress: newBrowser() });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: MSG.signInLinkFailed });
      }
      // Never used up by a GET (mail scanners open links).
      const get = await t.app.inject({ method: 'GET', url: `/api/sign-in-link?token=${token}` });
      expect(get.statusCode).toBe(405);
    });

    it('logs in once when the link is sent twice at once (a double click): one 200, one 400, one session', async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      expectStepUp(await login(user.username, password, newBrowser()));
      const token = tokenOf((await mailsTo(user.email))[0]!);
      const sessionsBefore = await countRows(t.database.db, sessions);
      const from = newBrowser();
      const answers = await Promise.all([openLink(token, from), openLink(token, from)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(await countRows(t.database.db, sessions)).toBe(sessionsBefore + 1);
    });

    it('takes no reset or verification token as a sign-in token, nor a sign-in token as either', async () => {
      const { user, password } = await createUser(t.database.db);
      const unverified = await createUser(t.database.db, { verified: false });
      await attack(user.username);
      expectStepUp(await login(user.username, password, newBrowser()));
      const signIn = tokenOf((await mailsTo(user.email))[0]!);
      await postJson(
        t,
        '/api/request_password_reset.php',
        { email: user.email },
        {},
        { remoteAddress: newBrowser() },
      );
      await postJson(
        t,
        '/api/resend_verification.php',
        { username: unverified.user.username },
        {},
        { remoteAddress: newBrowser() },
      );
      const all = await drainedMails(t);
      const reset = linkIn(
        all.filter((m) => m.headers.to === user.email).at(-1)!,
        `${TEST_ORIGIN}/reset-password?token=`,
      ).split('token=')[1]!;
      const verify = linkIn(
        all.filter((m) => m.headers.to === unverified.user.email).at(-1)!,
        `${TEST_ORIGIN}/api/verify-email?token=`,
      ).split('token=')[1]!;

      for (const other of [reset, verify]) expect((await openLink(other)).statusCode).toBe(400);
      const asReset = await postJson(
        t,
        '/api/reset_password.php',
        { token: signIn, password: 'another-secret', confirmPassword: 'another-secret' },
        {},
        { remoteAddress: newBrowser() },
      );
      expect(asReset.statusCode).toBe(400);
      const asVerify = await t.app.inject({ method: 'GET', url: `/api/verify-email?token=${signIn}` });
      expect(asVerify.statusCode).toBe(400);
      // Each still works for its own purpose afterwards; a password reset retires the sign-in link.
      const done = await postJson(
        t,
        '/api/reset_password.php',
        { token: reset, password: 'another-secret', confirmPassword: 'another-secret' },
        {},
        { remoteAddress: newBrowser() },
      );
      expect(done.statusCode).toBe(200);
      expect((await openLink(signIn)).statusCode).toBe(400);
    });

    it('mails nothing for the right password of an unverified or disabled account, answering alike', async () => {
      const unverified = await createUser(t.database.db, { verified: false });
      const disabled = await createUser(t.database.db);
      await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.user.id));
      for (const { user, password } of [unverified, disabled]) {
        await attack(user.username);
        expectStepUp(await login(user.username, password, newBrowser()));
        expect(await mailsTo(user.email)).toEqual([]);
      }
    });

    it('refuses a link of an account disabled since the mail (403), logging nobody in', async () => {
      const { user, password } = await createUser(t.database.db);
      await attack(user.username);
      expectStepUp(await login(user.username, password, newBrowser()));
      const token = tokenOf((await mailsTo(user.email))[0]!);
      await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
      const res = await openLink(token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: MSG.accountDisabled });
      expect(res.cookies).toEqual([]);
    });
  });
}

describe('the step-up answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  let ip = 0;
  const login = (username: string, password: string) =>
    postJson(
      t,
      '/api/login.php',
      { username, password },
      {},
      { remoteAddress: `10.120.${++ip >> 8}.${ip & 255}` },
    );

  it('takes about as long for a right password (which mails) as for a wrong one or an unknown name', async () => {
    const { user, password } = await createUser(t.database.db);
    const ghost = `ghost${randomUUID().slice(0, 8)}`;
    for (const name of [user.username, ghost]) {
      for (let i = 0; i < DISTRIBUTED_FAILED_LOGINS_MAX; i++) await login(name, 'wrong-password');
    }
    const time = async (username: string, pw: string) => {
      const start = performance.now();
      const res = await login(username, pw);
      expect(res.json()).toEqual({ error: MSG.loginStepUp });
      return performance.now() - start;
    };
    await time(ghost, 'warm-up');
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const right: number[] = [];
    const wrong: number[] = [];
    const unknown: number[] = [];
    // Every right one mails (the cap is not reached).
    for (let i = 0; i < SIGN_IN_MAILS_PER_HOUR; i++) {
      right.push(await time(user.username, password));
      wrong.push(await time(user.username, 'wrong-password'));
      unknown.push(await time(ghost, password));
    }
    const [mails] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = ${user.email}`);
    expect(mails?.n).toBe(SIGN_IN_MAILS_PER_HOUR);
    for (const other of [wrong, unknown]) {
      const ratio = median(right) / median(other);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    }
  });
});

describe('authRoutes onLogin after a sign-in link', () => {
  it('calls the hook with the user id, as after a password login', async () => {
    const t = await buildTestApp();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN });
    const ctx = { config, database: t.database, db: t.database.db, now: () => new Date() };
    const calls: Array<[number, string]> = [];
    const app = Fastify();
    await app.register(errorHandler);
    await app.register(cookiePlugin);
    await app.register(rateLimitPlugin, { global: false });
    await app.register(sessionPlugin, { ctx });
    await app.register(authRoutes, {
      ctx,
      onLogin: async (userId, req) => {
        calls.push([userId, req.url]);
      },
    });
    try {
      const { user } = await createUser(t.database.db);
      await mailSignInLink(ctx, user.id);
      const [row] = await t.database.db
        .select()
        .from(outbox)
        .where(sql`${outbox.payload}->>'to' = ${user.email}`);
      const text = (row!.payload as { text: string }).text;
      const token = linkIn({ headers: {}, text, html: '', raw: '' }, LINK).split('token=')[1]!;
      const res = await app.inject({ method: 'POST', url: '/api/sign-in-link', payload: { token } });
      expect(res.statusCode).toBe(200);
      expect(calls).toEqual([[user.id, '/api/sign-in-link']]);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
