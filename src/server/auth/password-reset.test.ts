import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, outbox, sessions, users } from '../db/schema.ts';
import { linkIn } from '../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { RESET_TOKEN_TTL_MS } from './password-reset-service.ts';
import { countRows, createLoggedInUser, createUser, drainedMails, loginAs, postJson } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const SENT = 'Password reset instructions sent (if account exists).';
const FAILED = 'Failed to reset password. The token might be invalid or expired.';
const forgot = (email: unknown, headers: Record<string, string> = {}) =>
  postJson(t, '/api/request_password_reset.php', { email }, headers);
const reset = (body: unknown) => postJson(t, '/api/reset_password.php', body);

/** Asks for a reset of `email` and returns the token from the mail. */
async function resetTokenFor(email: string): Promise<string> {
  expect((await forgot(email)).statusCode).toBe(200);
  const mail = (await drainedMails(t)).filter((m) => m.headers.to === email).at(-1);
  expect(mail?.headers.subject).toBe('Reset your password');
  return linkIn(mail!, `${TEST_ORIGIN}/reset-password?token=`).split('token=')[1]!;
}

async function counts() {
  const db = t.database.db;
  return {
    tokens: await countRows(db, emailTokens),
    outbox: await countRows(db, outbox),
    sessions: await countRows(db, sessions),
  };
}

describe('POST /api/request_password_reset.php (docs/security.md 10, 11)', () => {
  it('answers a known and an unknown email with the same 200 body; only the known one gets mail', async () => {
    const { user } = await createUser(t.database.db);
    const before = await countRows(t.database.db, outbox);
    const known = await forgot(user.email.toUpperCase());
    const unknown = await forgot('nobody@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: SENT });
    expect(unknown.body).toBe(known.body);
    expect(await countRows(t.database.db, outbox)).toBe(before + 1);
    const mails = await drainedMails(t);
    expect(mails.some((m) => m.headers.to === 'nobody@example.com')).toBe(false);
    expect(mails.some((m) => m.headers.to === user.email)).toBe(true);
  });

  it('builds the link from PUBLIC_URL even when the request says Host: evil', async () => {
    const { user } = await createUser(t.database.db);
    const res = await forgot(user.email, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      origin: 'http://evil.example',
    });
    // The Origin matches the (spoofed) Host, so the origin check lets it through: the link must still be ours.
    expect(res.statusCode).toBe(200);
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1)!;
    expect(mail.text).not.toContain('evil');
    expect(mail.html).not.toContain('evil');
    expect(linkIn(mail, `${TEST_ORIGIN}/reset-password?token=`)).toMatch(/token=[\w-]{43}$/);
  });

  it('caps reset mails at 3 an hour per account, answering the same (docs/security.md 13)', async () => {
    const { user } = await createUser(t.database.db);
    const before = await countRows(t.database.db, outbox);
    for (let i = 0; i < 5; i++) {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SENT });
    }
    expect(await countRows(t.database.db, outbox)).toBe(before + 3);
    t.advance(3600_000 + 1000);
    await forgot(user.email);
    expect(await countRows(t.database.db, outbox)).toBe(before + 4);
  });

  it('asks for an email, and a valid one (400)', async () => {
    const missing = await forgot('');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'Please enter your email address.' });
    const bad = await forgot('not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Please enter a valid email address.' });
  });
});

describe('POST /api/reset_password.php (docs/security.md 11, 12)', () => {
  it('sets the new password, ends every session, mails a notice and logs nobody in', async () => {
    const { user, password, cookie: phone } = await createLoggedInUser(t);
    const laptop = await loginAs(t, user.username, password);
    const token = await resetTokenFor(user.email);
    const res = await reset({ token, password: 'brand-new-pw', confirmPassword: 'brand-new-pw' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password reset successfully!' });
    expect(res.cookies.every((c) => c.value === '')).toBe(true);

    for (const cookie of [phone, laptop]) {
      const check = await t.app.inject({ url: '/api/check_session.php', headers: { cookie } });
      expect(check.statusCode).toBe(401);
    }
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await postJson(t, '/api/login.php', { username: user.username, password })).statusCode).toBe(401);
    expect(
      (await postJson(t, '/api/login.php', { username: user.username, password: 'brand-new-pw' })).statusCode,
    ).toBe(200);

    const notice = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1);
    expect(notice?.headers.subject).toBe('Your password was changed');
    expect(notice?.text).toContain(`${TEST_ORIGIN}/forgot-password`);
  });

  it('verifies the email of an unverified account (the mail reached its owner)', async () => {
    const { user } = await createUser(t.database.db, { verified: false });
    const token = await resetTokenFor(user.email);
    expect((await reset({ token, password: 'another-pw', confirmPassword: 'another-pw' })).statusCode).toBe(
      200,
    );
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('works once: a replayed token is refused and changes nothing', async () => {
    const { user } = await createUser(t.database.db);
    const token = await resetTokenFor(user.email);
    expect((await reset({ token, password: 'first-new', confirmPassword: 'first-new' })).statusCode).toBe(
      200,
    );
    const [before] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    const counted = await counts();
    const again = await reset({ token, password: 'second-new', confirmPassword: 'second-new' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: FAILED });
    const [after] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(await counts()).toEqual(counted);
  });

  it('refuses an expired (1 hour), superseded, tampered or made-up token', async () => {
    const { user, password } = await createUser(t.database.db);
    const expired = await resetTokenFor(user.email);
    t.advance(RESET_TOKEN_TTL_MS + 1000);
    const superseded = await resetTokenFor(user.email);
    const current = await resetTokenFor(user.email);
    const tampered = `${current.slice(0, -2)}${current.endsWith('AA') ? 'BB' : 'AA'}`;
    const counted = await counts();
    for (const token of [expired, superseded, tampered, 'A'.repeat(43), 'short']) {
      const res = await reset({ token, password: 'new-password', confirmPassword: 'new-password' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: FAILED });
    }
    expect(await counts()).toEqual(counted);
    expect((await postJson(t, '/api/login.php', { username: user.username, password })).statusCode).toBe(200);
  });

  it('checks the token, the length and the confirmation with the texts of docs/domain.md', async () => {
    const { user } = await createUser(t.database.db);
    const token = await resetTokenFor(user.email);
    const cases: [unknown, string][] = [
      [{ password: 'abcdef', confirmPassword: 'abcdef' }, 'Cannot reset password without a valid token.'],
      [
        { token: '', password: 'abcdef', confirmPassword: 'abcdef' },
        'Cannot reset password without a valid token.',
      ],
      [{ token, password: 'abc', confirmPassword: 'abc' }, 'Password must be at least 6 characters long.'],
      [{ token, confirmPassword: 'abcdef' }, 'Password must be at least 6 characters long.'],
      [{ token, password: 'abcdef', confirmPassword: 'abcdeg' }, 'Passwords do not match.'],
      [{ token, password: 'abcdef' }, 'Passwords do not match.'],
    ];
    const counted = await counts();
    for (const [body, error] of cases) {
      const res = await reset(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    expect(await counts()).toEqual(counted);
    // The token survived the refused attempts.
    expect((await reset({ token, password: 'abcdef', confirmPassword: 'abcdef' })).statusCode).toBe(200);
  });
});
