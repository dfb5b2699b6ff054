import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, outbox } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import type { TokenPurpose } from './email-tokens-repository.ts';
import { RESET_MAILS_PER_HOUR } from './password-reset-service.ts';
import { DISTRIBUTED_FAILED_LOGINS_MAX, FAILED_LOGINS_MAX } from './routes.ts';
import { MSG } from './schemas.ts';
import { createUser, postJson } from './testing.ts';
import { VERIFY_MAILS_PER_HOUR } from './verification-service.ts';

// The per-account caps under a burst: N requests for one account at the same moment, each from its own
// address (the per-IP limits stay out of the way, as with an attacker on many IPs), or, for the login
// throttle's per-client count, all from one. Without the per-account
// lock the mail caps only break on PostgreSQL (PGlite runs one transaction at a time); the login throttle
// is in process and broke on both.

const N = 10;

let t: TestApp;
beforeAll(async () => {
  // Default scale: the failed-login throttle is FAILED_LOGINS_MAX, as in production.
  t = await buildTestApp();
});
afterAll(() => t.close());

let ip = 0;
const nextAddress = () => `10.9.${Math.floor(++ip / 250)}.${ip % 250}`;

/** `n` requests at once, each from its own address unless `from` names one for all. */
function burst(url: string, body: unknown, from?: string, n = N) {
  return Promise.all(
    Array.from({ length: n }, () => postJson(t, url, body, {}, { remoteAddress: from ?? nextAddress() })),
  );
}

async function mailsTo(email: string): Promise<number> {
  const rows = await t.database.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(sql`${outbox.payload}->>'to' = ${email}`);
  return rows.length;
}

async function tokensOf(userId: number, purpose: TokenPurpose) {
  const where = and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose));
  const all = await t.database.db.select().from(emailTokens).where(where);
  const live = await t.database.db
    .select()
    .from(emailTokens)
    .where(and(where, isNull(emailTokens.usedAt)));
  return { issued: all.length, live: live.length };
}

describe('per-account mail caps under concurrent requests', () => {
  it(`resend verification: ${N} at once queue exactly ${VERIFY_MAILS_PER_HOUR} mails, all answered alike`, async () => {
    const { user } = await createUser(t.database.db, { verified: false });
    const responses = await burst('/api/resend_verification.php', { username: user.username });
    const unknown = await postJson(t, '/api/resend_verification.php', { username: 'no-such-user' });
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(unknown.body);
    }
    expect(unknown.json()).toEqual({ message: MSG.resent });
    expect(await mailsTo(user.email)).toBe(VERIFY_MAILS_PER_HOUR);
    // Only the newest link works.
    expect(await tokensOf(user.id, 'verify')).toEqual({ issued: VERIFY_MAILS_PER_HOUR, live: 1 });
  });

  it(`forgot password: ${N} at once queue exactly ${RESET_MAILS_PER_HOUR} mails, all answered alike`, async () => {
    const { user } = await createUser(t.database.db);
    const responses = await burst('/api/request_password_reset.php', { email: user.email });
    const unknown = await postJson(t, '/api/request_password_reset.php', { email: 'nobody@example.com' });
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(unknown.body);
    }
    expect(unknown.json()).toEqual({ message: MSG.forgotSent });
    expect(await mailsTo(user.email)).toBe(RESET_MAILS_PER_HOUR);
    expect(await tokensOf(user.id, 'reset')).toEqual({ issued: RESET_MAILS_PER_HOUR, live: 1 });
  });

  it('a second burst within the hour queues nothing more', async () => {
    const { user } = await createUser(t.database.db);
    await burst('/api/request_password_reset.php', { email: user.email });
    await burst('/api/request_password_reset.php', { email: user.email });
    expect(await mailsTo(user.email)).toBe(RESET_MAILS_PER_HOUR);
  });
});

describe('failed-login throttle under concurrent requests', () => {
  it(`${N} wrong passwords at once from one address: exactly ${FAILED_LOGINS_MAX} are checked, the rest get 429`, async () => {
    const { user, password } = await createUser(t.database.db);
    const from = nextAddress();
    const responses = await burst(
      '/api/login.php',
      { username: user.username, password: 'wrong-password' },
      from,
    );
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([
      ...Array<number>(FAILED_LOGINS_MAX).fill(401),
      ...Array<number>(N - FAILED_LOGINS_MAX).fill(429),
    ]);
    for (const res of responses.filter((r) => r.statusCode === 429)) {
      expect(res.json()).toEqual({ error: MSG.loginThrottled });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The right password waits too from that address, and is free again after the window.
    const blocked = await postJson(
      t,
      '/api/login.php',
      { username: user.username, password },
      {},
      { remoteAddress: from },
    );
    expect(blocked.statusCode).toBe(429);
    t.advance(Number(blocked.headers['retry-after']) * 1000);
    const later = await postJson(
      t,
      '/api/login.php',
      { username: user.username, password },
      {},
      { remoteAddress: from },
    );
    expect(later.statusCode).toBe(200);
  });

  it(`${DISTRIBUTED_FAILED_LOGINS_MAX + N} wrong passwords at once from as many addresses: exactly ${DISTRIBUTED_FAILED_LOGINS_MAX} are answered 401, the rest get the step-up`, async () => {
    const { user } = await createUser(t.database.db);
    const n = DISTRIBUTED_FAILED_LOGINS_MAX + N;
    const responses = await burst(
      '/api/login.php',
      { username: user.username, password: 'wrong!' },
      undefined,
      n,
    );
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([
      ...Array<number>(DISTRIBUTED_FAILED_LOGINS_MAX).fill(401),
      ...Array<number>(N).fill(429),
    ]);
    for (const res of responses.filter((r) => r.statusCode === 429)) {
      expect(res.json()).toEqual({ error: MSG.loginStepUp });
    }
  });

  // An attempt counts from its start (the check cannot know how a password check still running will end),
  // so a burst of right passwords may meet 429 too; none is a failure once it is done.
  it('a burst of right passwords: at least the allowance logs in, no 401, and nothing stays counted', async () => {
    const { user, password } = await createUser(t.database.db);
    const from = nextAddress();
    const codes = (await burst('/api/login.php', { username: user.username, password }, from)).map(
      (r) => r.statusCode,
    );
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(FAILED_LOGINS_MAX);
    await expectFullAllowance(user.username, from);
  });

  it('a burst of right passwords of an unverified account: 403 (or 429), and nothing stays counted', async () => {
    const { user, password } = await createUser(t.database.db, { verified: false });
    const from = nextAddress();
    const codes = (await burst('/api/login.php', { username: user.username, password }, from)).map(
      (r) => r.statusCode,
    );
    expect(codes.every((c) => c === 403 || c === 429)).toBe(true);
    expect(codes.filter((c) => c === 403).length).toBeGreaterThanOrEqual(FAILED_LOGINS_MAX);
    await expectFullAllowance(user.username, from);
  });
});

/** `username` has all of its failed-login allowance left at `from`: FAILED_LOGINS_MAX 401s, then a 429. */
async function expectFullAllowance(username: string, from: string) {
  const attempt = () =>
    postJson(t, '/api/login.php', { username, password: 'nope-nope' }, {}, { remoteAddress: from });
  for (let i = 0; i < FAILED_LOGINS_MAX; i++) expect((await attempt()).statusCode).toBe(401);
  expect((await attempt()).statusCode).toBe(429);
}
