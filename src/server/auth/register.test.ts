import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, outbox, users } from '../db/schema.ts';
import { linkIn } from '../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { countRows, createUser, drainedMails, postJson } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const register = (body: unknown) => postJson(t, '/api/register.php', body);

async function counts() {
  const db = t.database.db;
  return {
    users: await countRows(db, users),
    tokens: await countRows(db, emailTokens),
    outbox: await countRows(db, outbox),
  };
}

async function expectRefused(body: unknown, status: number, error: string) {
  const before = await counts();
  const res = await register(body);
  expect(res.statusCode).toBe(status);
  expect(res.json()).toEqual({ error });
  expect(await counts()).toEqual(before);
}

describe('POST /api/register.php', () => {
  it('creates an unverified account with a hashed password, a hashed token and a queued mail (201)', async () => {
    const before = await counts();
    const res = await register({
      username: 'Ada_Lovelace',
      email: 'Ada@Example.com',
      password: 'analytical',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      message: 'Registration successful! Please check your email for a verification link.',
    });
    expect(res.cookies).toEqual([]);
    expect(await counts()).toEqual({
      users: before.users + 1,
      tokens: before.tokens + 1,
      outbox: before.outbox + 1,
    });
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'Ada_Lovelace'));
    expect(user?.email).toBe('Ada@Example.com');
    expect(user?.emailVerifiedAt).toBeNull();
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.passwordHash).not.toContain('analytical');
    const [token] = await t.database.db.select().from(emailTokens).where(eq(emailTokens.userId, user!.id));
    expect(token?.purpose).toBe('verify');
    expect(token?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('mails a verification link built from PUBLIC_URL; following it verifies the account and redirects to /login?verified=1', async () => {
    await register({ username: 'grace', email: 'grace@example.com', password: 'cobol-rules' });
    const mail = (await drainedMails(t)).find((m) => m.headers.to === 'grace@example.com');
    expect(mail?.headers.subject).toBe('Verify your email');
    expect(mail?.text).toContain('Badger Print Co.');
    expect(mail?.html).toContain('grace');
    const link = linkIn(mail!, `${TEST_ORIGIN}/api/verify-email?token=`);

    const before = await postJson(t, '/api/login.php', { username: 'grace', password: 'cobol-rules' });
    expect(before.statusCode).toBe(403);

    const res = await t.app.inject({ method: 'GET', url: link.slice(TEST_ORIGIN.length) });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?verified=1');
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'grace'));
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);

    const login = await postJson(t, '/api/login.php', { username: 'grace', password: 'cobol-rules' });
    expect(login.statusCode).toBe(200);
  });

  it('keeps a 100-character password whole (docs/security.md 2)', async () => {
    const password = `${'p'.repeat(99)}q`;
    await createUser(t.database.db, { username: 'longpass', password });
    const ok = await postJson(t, '/api/login.php', { username: 'longpass', password });
    expect(ok.statusCode).toBe(200);
    const truncated = await postJson(t, '/api/login.php', {
      username: 'longpass',
      password: password.slice(0, 72),
    });
    expect(truncated.statusCode).toBe(401);
  });

  it('refuses a taken username or email, in any case, with one text that does not say which (409)', async () => {
    await createUser(t.database.db, { username: 'taken', email: 'taken@example.com' });
    const text = 'Registration failed. Username or email might already be taken.';
    await expectRefused({ username: 'TAKEN', email: 'fresh@example.com', password: 'secret1' }, 409, text);
    await expectRefused({ username: 'fresh', email: 'Taken@Example.COM', password: 'secret1' }, 409, text);
  });

  it('asks for every field (400)', async () => {
    const text = 'Username, email and password are required.';
    await expectRefused({}, 400, text);
    await expectRefused({ username: 'x1x', email: 'a@b.co' }, 400, text);
    await expectRefused({ username: '   ', email: 'a@b.co', password: 'secret1' }, 400, text);
    await expectRefused({ username: 'abc', email: 'a@b.co', password: 12345678 }, 400, text);
  });

  it('refuses a short password with the text of docs/domain.md, and an oversized one (400)', async () => {
    await expectRefused(
      { username: 'shorty', email: 'shorty@example.com', password: '12345' },
      400,
      'Password must be at least 6 characters long.',
    );
    await expectRefused(
      { username: 'longy', email: 'longy@example.com', password: 'x'.repeat(257) },
      400,
      'Password must be at most 256 characters long.',
    );
  });

  it('refuses bad usernames and emails (400)', async () => {
    const badName =
      'Username must be 3-32 characters long and use only letters, digits, dots, dashes or underscores.';
    for (const username of ['ab', 'a'.repeat(33), 'with space', 'semi;colon', 'ünïcode', 'a@b']) {
      await expectRefused({ username, email: 'ok@example.com', password: 'secret1' }, 400, badName);
    }
    const badEmail = 'Please enter a valid email address.';
    for (const email of [
      'nope',
      'a@b',
      'x@y.z\r\nBcc: victim@example.com',
      `${'a'.repeat(250)}@example.com`,
    ]) {
      await expectRefused({ username: 'okname', email, password: 'secret1' }, 400, badEmail);
    }
  });
});
