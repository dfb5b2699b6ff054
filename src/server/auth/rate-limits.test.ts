import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { countRows, createUser, postJson } from './testing.ts';

// Per-IP limits at the default scale (RATE_LIMIT_SCALE=1). Each case uses its own client address.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function exhaust(
  url: string,
  max: number,
  body: (i: number) => unknown,
  remoteAddress: string,
  headers: (i: number) => Record<string, string> = () => ({}),
) {
  for (let i = 0; i < max; i++) {
    const res = await postJson(t, url, body(i), headers(i), { remoteAddress });
    expect(res.statusCode, `request ${i + 1}`).not.toBe(429);
  }
  return postJson(t, url, body(max), headers(max), { remoteAddress });
}

function expect429(res: Awaited<ReturnType<typeof postJson>>, error: string) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('per-IP rate limits', () => {
  it('forgot password: 5 per 15 minutes, then the text of docs/api.md; mail not sent', async () => {
    const { user } = await createUser(t.database.db);
    const res = await exhaust(
      '/api/request_password_reset.php',
      5,
      () => ({ email: 'x@example.com' }),
      '10.1.0.1',
    );
    expect429(
      res,
      'Too many password reset requests have been sent from your location. Please wait a while before trying again.',
    );
    const before = await countRows(t.database.db, outbox);
    const blocked = await postJson(
      t,
      '/api/request_password_reset.php',
      { email: user.email },
      {},
      {
        remoteAddress: '10.1.0.1',
      },
    );
    expect(blocked.statusCode).toBe(429);
    expect(await countRows(t.database.db, outbox)).toBe(before);
    // Another client is not affected.
    const other = await postJson(
      t,
      '/api/request_password_reset.php',
      { email: 'x@example.com' },
      {},
      {
        remoteAddress: '10.1.0.2',
      },
    );
    expect(other.statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY, so a spoofed header does not reset the limit', async () => {
    const res = await exhaust(
      '/api/resend_verification.php',
      5,
      () => ({ username: 'someone' }),
      '10.2.0.1',
      (i) => ({ 'x-forwarded-for': `203.0.113.${i}` }),
    );
    expect429(
      res,
      'Too many verification emails have been requested. Please wait a while before trying again.',
    );
  });

  it('register: 10 an hour; the 11th is refused before anything is stored', async () => {
    const res = await exhaust(
      '/api/register.php',
      10,
      (i) => ({ username: `flood${i}`, email: `flood${i}@example.com`, password: 'secret1' }),
      '10.3.0.1',
    );
    expect429(
      res,
      'Too many registration attempts from your location. Please wait a while before trying again.',
    );
    expect(await countRows(t.database.db, users)).toBeGreaterThanOrEqual(10);
    const before = await countRows(t.database.db, users);
    await postJson(
      t,
      '/api/register.php',
      { username: 'flood-x', email: 'fx@example.com', password: 'secret1' },
      {},
      {
        remoteAddress: '10.3.0.1',
      },
    );
    expect(await countRows(t.database.db, users)).toBe(before);
  });

  it('login: 20 per 15 minutes per IP, across usernames', async () => {
    const res = await exhaust(
      '/api/login.php',
      20,
      (i) => ({ username: `guess${i}`, password: 'wrong-password' }),
      '10.4.0.1',
    );
    expect429(res, 'Too many login attempts from your location. Please wait a while before trying again.');
  });

  it('reset password: 10 per 15 minutes per IP', async () => {
    const res = await exhaust(
      '/api/reset_password.php',
      10,
      () => ({ token: 'A'.repeat(43), password: 'secret1', confirmPassword: 'secret1' }),
      '10.5.0.1',
    );
    expect429(res, 'Too many password reset attempts. Please wait a while before trying again.');
  });
});

describe('behind a trusted proxy (TRUST_PROXY=1)', () => {
  it('limits by the client address in X-Forwarded-For', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: '1' });
    try {
      const send = (client: string) =>
        postJson(
          proxied,
          '/api/resend_verification.php',
          { username: 'someone' },
          { 'x-forwarded-for': client },
        );
      for (let i = 0; i < 5; i++) expect((await send('198.51.100.7')).statusCode).toBe(200);
      expect((await send('198.51.100.7')).statusCode).toBe(429);
      expect((await send('198.51.100.8')).statusCode).toBe(200);
      // Only the entry our one proxy added counts: a client-written address in front of it changes nothing.
      for (let i = 0; i < 3; i++) expect((await send(`203.0.113.${i}, 198.51.100.7`)).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});
