import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '../auth/testing.ts';
import { users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { type CliIo, createAdmin, promoteUser, runAdminCommand } from './cli.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

function io(password = 'typed-password') {
  const out: string[] = [];
  const err: string[] = [];
  let asked = 0;
  const value: CliIo & { out: (l: string) => void } = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readPassword: async () => {
      asked++;
      return password;
    },
  };
  return { io: value, out, err, asked: () => asked };
}

const getRole = async (cookie: string) =>
  (await t.app.inject({ url: '/api/get_user_role.php', headers: { cookie } })).json();

describe('admin create', () => {
  it('creates a verified admin who can log in and is seen as admin', async () => {
    const run = io();
    const code = await runAdminCommand(
      t.database.db,
      ['create', 'Boss', 'boss@example.com', '--password', 'boss-password'],
      run.io,
    );
    expect(code).toBe(0);
    expect(run.out).toEqual(["Created the admin 'Boss' <boss@example.com>. They can log in now."]);
    expect(run.asked()).toBe(0);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'Boss'));
    expect(row?.isAdmin).toBe(true);
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    const cookie = await loginAs(t, 'boss', 'boss-password');
    expect(await getRole(cookie)).toEqual({ isAdmin: true });
  });

  it('asks for the password when --password is not given', async () => {
    const run = io('prompted-pw');
    expect(await runAdminCommand(t.database.db, ['create', 'asked', 'asked@example.com'], run.io)).toBe(0);
    expect(run.asked()).toBe(1);
    await loginAs(t, 'asked', 'prompted-pw');
  });

  it('says clearly which of username and email is taken, and creates nothing', async () => {
    await createUser(t.database.db, { username: 'existing', email: 'existing@example.com' });
    expect(
      await createAdmin(t.database.db, {
        username: 'EXISTING',
        email: 'new@example.com',
        password: 'secret1',
      }),
    ).toEqual({ ok: false, message: "The username 'existing' is already taken." });
    expect(
      await createAdmin(t.database.db, {
        username: 'newname',
        email: 'Existing@example.com',
        password: 'secret1',
      }),
    ).toEqual({
      ok: false,
      message: "The email Existing@example.com is already used by the account 'existing'.",
    });
    const run = io();
    expect(await runAdminCommand(t.database.db, ['create', 'existing', 'x@example.com'], run.io)).toBe(1);
    expect(run.err).toEqual(["The username 'existing' is already taken."]);
    expect(await t.database.db.select().from(users).where(eq(users.username, 'newname'))).toEqual([]);
  });

  it('applies the account rules', async () => {
    const db = t.database.db;
    expect(
      (await createAdmin(db, { username: 'x', email: 'x@example.com', password: 'secret1' })).message,
    ).toMatch(/^Username must be 3-32/);
    expect((await createAdmin(db, { username: 'okay', email: 'nope', password: 'secret1' })).message).toBe(
      'Please enter a valid email address.',
    );
    expect(
      (await createAdmin(db, { username: 'okay', email: 'o@example.com', password: '123' })).message,
    ).toBe('Password must be at least 6 characters long.');
  });

  it('prints the usage for a wrong command line', async () => {
    for (const argv of [['create'], ['create', 'a'], ['create', 'a', 'b', 'c'], ['bogus'], ['promote']]) {
      const run = io();
      expect(await runAdminCommand(t.database.db, argv, run.io)).toBe(2);
      expect(run.err[0]).toContain('Usage:');
    }
    const run = io();
    expect(await runAdminCommand(t.database.db, ['create', 'a', 'b@example.com', '--password'], run.io)).toBe(
      2,
    );
    expect(run.err).toEqual(['--password needs a value.']);
  });
});

describe('admin promote', () => {
  it('makes an existing user an admin, and says so when already one', async () => {
    const { user, password } = await createUser(t.database.db, { username: 'Promoted' });
    const cookie = await loginAs(t, user.username, password);
    expect(await getRole(cookie)).toEqual({ isAdmin: false });
    const run = io();
    expect(await runAdminCommand(t.database.db, ['promote', 'promoted'], run.io)).toBe(0);
    expect(run.out).toEqual(["'Promoted' is now an admin."]);
    // The role is read fresh: the open session sees it at once.
    expect(await getRole(cookie)).toEqual({ isAdmin: true });
    expect(await promoteUser(t.database.db, 'Promoted')).toEqual({
      ok: true,
      message: "'Promoted' is already an admin.",
    });
  });

  it('refuses an unknown user', async () => {
    const run = io();
    expect(await runAdminCommand(t.database.db, ['promote', 'ghost'], run.io)).toBe(1);
    expect(run.err).toEqual(["There is no user named 'ghost'."]);
  });
});
