import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, outbox, sessions, users } from '../db/schema.ts';
import { linkIn } from '../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { countRows, drainedMails, postJson, sessionCookieOf } from './testing.ts';

// The HTTP rules every account call follows (docs/security.md 15, 16, 18, 22).

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await buildTestApp({ LOG_LEVEL: 'debug', RATE_LIMIT_SCALE: '100' }, { logStream: stream });
});
afterAll(() => t.close());

async function counts() {
  const db = t.database.db;
  return Promise.all([users, sessions, emailTokens, outbox].map((table) => countRows(db, table)));
}

const POST_ROUTES = [
  '/api/register.php',
  '/api/login.php',
  '/api/resend_verification.php',
  '/api/request_password_reset.php',
  '/api/reset_password.php',
  '/api/send_contact_email.php',
];
const GET_ROUTES = ['/api/check_session.php', '/api/get_user_role.php', '/api/verify-email'];

describe('wrong methods (docs/security.md 16)', () => {
  it('answers a GET (or PUT, DELETE...) to a POST call with 405 and an Allow header', async () => {
    for (const url of POST_ROUTES) {
      for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url, headers: { origin: TEST_ORIGIN } });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow).toBe('POST');
        if (method !== 'HEAD') expect(res.json()).toEqual({ error: 'Method not allowed.' });
      }
    }
  });

  it('answers a POST to a GET call with 405', async () => {
    for (const url of GET_ROUTES) {
      const res = await postJson(t, url, {});
      expect(res.statusCode, url).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    const logout = await t.app.inject({
      method: 'DELETE',
      url: '/api/logout.php',
      headers: { origin: TEST_ORIGIN },
    });
    expect(logout.statusCode).toBe(405);
  });
});

describe('bodies', () => {
  it('refuses text/plain with 415 and stores nothing (docs/security.md 16)', async () => {
    const before = await counts();
    for (const url of POST_ROUTES) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'text/plain', origin: TEST_ORIGIN },
        payload: JSON.stringify({ username: 'plain', email: 'plain@example.com', password: 'secret1' }),
      });
      expect(res.statusCode, url).toBe(415);
      expect(res.json()).toEqual({ error: 'Unsupported content type: send JSON.' });
    }
    expect(await counts()).toEqual(before);
  });

  it('answers malformed JSON with a generic 400 (docs/security.md 18)', async () => {
    for (const url of POST_ROUTES) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        payload: '{"username": "x", ',
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ error: 'The request is not valid.' });
    }
  });

  it('treats a JSON array or string body as missing fields', async () => {
    for (const payload of ['[]', '"text"', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register.php',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Username, email and password are required.' });
    }
  });
});

describe('cross-site requests (docs/security.md 15)', () => {
  it('refuses a login or registration from another origin with 403 and changes nothing', async () => {
    const before = await counts();
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register.php',
        headers: { 'content-type': 'application/json', ...headers },
        payload: { username: 'csrf', email: 'csrf@example.com', password: 'secret1' },
      });
      expect(res.statusCode).toBe(403);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('logs and answers hold no secrets (docs/security.md 22)', () => {
  it('never logs or echoes a password, a session id or a token (the outbox line names a file, not a link)', async () => {
    const password = 'Sup3r-Secret-Pa55';
    const newPassword = 'An0ther-Secret-Pa55';
    const bodies: string[] = [];
    const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await postJson(t, url, body, headers);
      bodies.push(res.body, JSON.stringify(res.headers));
      return res;
    };
    await post('/api/register.php', { username: 'quiet', email: 'quiet@example.com', password });
    const verifyLink = linkIn((await drainedMails(t)).at(-1)!, `${TEST_ORIGIN}/api/verify-email?token=`);
    const verifyToken = verifyLink.split('token=')[1]!;
    await t.app.inject({ url: verifyLink.slice(TEST_ORIGIN.length) });
    await post('/api/login.php', { username: 'quiet', password: 'wrong-password' });
    const login = await post('/api/login.php', { username: 'quiet', password });
    const cookie = sessionCookieOf(login)!;
    const sessionId = cookie.split('=')[1]!;
    await t.app.inject({ url: '/api/check_session.php', headers: { cookie } });
    await post('/api/request_password_reset.php', { email: 'quiet@example.com' });
    const resetLink = linkIn((await drainedMails(t)).at(-1)!, `${TEST_ORIGIN}/reset-password?token=`);
    const resetToken = resetLink.split('token=')[1]!;
    await post('/api/reset_password.php', {
      token: resetToken,
      password: newPassword,
      confirmPassword: newPassword,
    });
    await t.app.inject({ url: '/api/logout.php', headers: { cookie } });
    await drainedMails(t);

    expect(lines.length).toBeGreaterThan(10);
    const log = lines.join('');
    for (const secret of [password, newPassword, sessionId, 'wrong-password']) {
      expect(log).not.toContain(secret);
    }
    // No line holds a token, not even the outbox's "mail to" lines, which name the mail's file instead.
    for (const token of [verifyToken, resetToken]) expect(log).not.toContain(token);
    const mailLines = lines.filter((l) => l.includes('"msg":"mail to q***@example.com: '));
    expect(mailLines.length).toBeGreaterThanOrEqual(3);
    for (const line of mailLines) expect(line).toMatch(/\.eml\)"/);
    expect(log).toContain('/api/verify-email?token=[redacted]');
    for (const body of bodies) {
      for (const secret of [password, newPassword, verifyToken, resetToken])
        expect(body).not.toContain(secret);
    }
  });
});
