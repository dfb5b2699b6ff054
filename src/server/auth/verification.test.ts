import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../db/schema.ts';
import { linkIn, type ParsedMail } from '../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { countRows, createUser, drainedMails, postJson } from './testing.ts';
import { VERIFY_TOKEN_TTL_MS } from './verification-service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const LINK = `${TEST_ORIGIN}/api/verify-email?token=`;
const RESENT = 'Verification email resent successfully (if account exists and is unverified).';

/** Registers `username` and returns the path of the link in its verification mail. */
async function registerAndGetLink(username: string): Promise<string> {
  const res = await postJson(t, '/api/register.php', {
    username,
    email: `${username}@example.com`,
    password: 'secret-pw',
  });
  expect(res.statusCode).toBe(201);
  return lastLinkTo(`${username}@example.com`, await drainedMails(t));
}

function lastLinkTo(to: string, mails: ParsedMail[]): string {
  const mail = mails.filter((m) => m.headers.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return linkIn(mail, LINK).slice(TEST_ORIGIN.length);
}

const visit = (path: string, accept = 'application/json') =>
  t.app.inject({ method: 'GET', url: path, headers: { accept } });

async function isVerified(username: string): Promise<boolean> {
  const [u] = await t.database.db.select().from(users).where(eq(users.username, username));
  return u?.emailVerifiedAt != null;
}

describe('GET /api/verify-email (docs/security.md 5)', () => {
  it('works once: a replayed link is a 400 (the account stays verified)', async () => {
    const link = await registerAndGetLink('replay');
    expect((await visit(link)).statusCode).toBe(302);
    const again = await visit(link);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'This verification link is invalid, expired or already used.' });
    expect(await isVerified('replay')).toBe(true);
  });

  it('refuses an expired link (after 24 hours); the account stays unverified', async () => {
    const link = await registerAndGetLink('expired');
    t.advance(VERIFY_TOKEN_TTL_MS + 1000);
    expect((await visit(link)).statusCode).toBe(400);
    expect(await isVerified('expired')).toBe(false);
  });

  it('refuses a tampered, truncated or missing token', async () => {
    const link = await registerAndGetLink('tampered');
    const token = link.split('token=')[1]!;
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/api/verify-email?token=${flipped}`,
      `/api/verify-email?token=${token.slice(0, 20)}`,
      '/api/verify-email',
      '/api/verify-email?token=',
      `/api/verify-email?token=${token}&token=${token}`,
    ]) {
      expect((await visit(path)).statusCode).toBe(400);
    }
    expect(await isVerified('tampered')).toBe(false);
  });

  it('shows a person a short HTML page with a link to /login', async () => {
    const res = await visit('/api/verify-email?token=nope', 'text/html,application/xhtml+xml');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('This verification link is not valid');
    expect(res.body).toContain('href="/login"');
  });

  it('does not take a reset token as a verification token', async () => {
    const { user } = await createUser(t.database.db, { username: 'crossuse', verified: false });
    await postJson(t, '/api/request_password_reset.php', { email: user.email });
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1)!;
    const token = linkIn(mail, `${TEST_ORIGIN}/reset-password?token=`).split('token=')[1]!;
    expect((await visit(`/api/verify-email?token=${token}`)).statusCode).toBe(400);
    expect(await isVerified('crossuse')).toBe(false);
  });
});

describe('POST /api/resend_verification.php', () => {
  it('sends a new link to an unverified account; the older link stops working', async () => {
    const oldLink = await registerAndGetLink('resender');
    const res = await postJson(t, '/api/resend_verification.php', { username: 'Resender' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: RESENT });
    const newLink = lastLinkTo('resender@example.com', await drainedMails(t));
    expect(newLink).not.toBe(oldLink);
    expect((await visit(oldLink)).statusCode).toBe(400);
    expect((await visit(newLink)).statusCode).toBe(302);
    expect(await isVerified('resender')).toBe(true);
  });

  it('answers the same for an unknown or verified account and sends nothing', async () => {
    await createUser(t.database.db, { username: 'already' });
    const before = await countRows(t.database.db, outbox);
    const unknown = await postJson(t, '/api/resend_verification.php', { username: 'no-such-user' });
    const verified = await postJson(t, '/api/resend_verification.php', { username: 'already' });
    for (const res of [unknown, verified]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: RESENT });
    }
    expect(await countRows(t.database.db, outbox)).toBe(before);
  });

  it('asks for the username (400)', async () => {
    const res = await postJson(t, '/api/resend_verification.php', { username: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Please enter your username first.' });
  });
});
