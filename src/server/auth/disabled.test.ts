import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../db/schema.ts';
import { linkIn } from '../mail/testing.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { MSG } from './schemas.ts';
import { countRows, createLoggedInUser, createUser, drainedMails, loginAs, postJson } from './testing.ts';

// A disabled account (the back office's customers, users.disabled_at): its sessions count as ended, its
// right password gets a 403 that says so, and no path the customer has (reset, verification) enables it again.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

let ip = 0;
const login = (username: string, password: string) =>
  postJson(t, '/api/login.php', { username, password }, {}, { remoteAddress: `10.9.0.${++ip}` });
const checkSession = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/check_session.php', headers: { cookie } });

async function disable(userId: number, at: Date | null = new Date()) {
  await t.database.db.update(users).set({ disabledAt: at }).where(eq(users.id, userId));
}

async function isDisabled(userId: number) {
  const [u] = await t.database.db.select().from(users).where(eq(users.id, userId));
  return u?.disabledAt != null;
}

describe('a disabled account', () => {
  it('is refused at login with 403 "This account is disabled. Please contact us." and gets no session', async () => {
    const { user, password } = await createUser(t.database.db);
    await disable(user.id);
    const before = await countRows(t.database.db, sessions);
    const res = await login(user.username, password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'This account is disabled. Please contact us.' });
    expect(MSG.accountDisabled).toBe('This account is disabled. Please contact us.');
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect(await countRows(t.database.db, sessions)).toBe(before);
  });

  it('tells nothing to a wrong password: the same 401 as any other', async () => {
    const { user } = await createUser(t.database.db);
    await disable(user.id);
    const res = await login(user.username, 'not the password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid username or password.' });
  });

  it('ends a session still open (a login racing the disable): 401, the row deleted, logged out everywhere', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    expect((await checkSession(cookie)).json()).toMatchObject({ loggedIn: true });
    await disable(user.id);
    const check = await checkSession(cookie);
    expect(check.statusCode).toBe(401);
    expect(check.json()).toEqual({ loggedIn: false });
    const role = await t.app.inject({ url: '/api/get_user_role.php', headers: { cookie } });
    expect(role.statusCode).toBe(401);
    const orders = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie } });
    expect(orders.statusCode).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it('is not told "not verified" by the checkout: a disabled account is simply logged out (401)', async () => {
    const { user, cookie } = await createLoggedInUser(t);
    await t.database.db
      .update(users)
      .set({ disabledAt: new Date(), emailVerifiedAt: null })
      .where(eq(users.id, user.id));
    const res = await postJson(t, '/api/create-checkout-session.php', { cartItems: [] }, { cookie });
    expect(res.statusCode).toBe(401);
  });

  it('stays disabled after a password reset, which still ends nothing more and logs nobody in', async () => {
    const { user, password } = await createUser(t.database.db);
    await disable(user.id);
    expect((await postJson(t, '/api/request_password_reset.php', { email: user.email })).statusCode).toBe(
      200,
    );
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1);
    const token = linkIn(mail!, `${TEST_ORIGIN}/reset-password?token=`).split('token=')[1]!;
    const reset = await postJson(t, '/api/reset_password.php', {
      token,
      password: 'a brand new one',
      confirmPassword: 'a brand new one',
    });
    expect(reset.statusCode).toBe(200);
    expect(await isDisabled(user.id)).toBe(true);
    expect((await login(user.username, 'a brand new one')).statusCode).toBe(403);
    expect((await login(user.username, password)).statusCode).toBe(401);
  });

  it('stays disabled when its verification link is resent and followed', async () => {
    const { user, password } = await createUser(t.database.db, { verified: false });
    await disable(user.id);
    const resend = await postJson(t, '/api/resend_verification.php', { username: user.username });
    expect(resend.statusCode).toBe(200);
    const mail = (await drainedMails(t)).filter((m) => m.headers.to === user.email).at(-1);
    const link = linkIn(mail!, `${TEST_ORIGIN}/api/verify-email?token=`).slice(TEST_ORIGIN.length);
    const visit = await t.app.inject({ url: link });
    expect(visit.headers.location).toBe('/login?verified=1');
    const [u] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(u?.emailVerifiedAt).not.toBeNull();
    expect(u?.disabledAt).not.toBeNull();
    expect((await login(user.username, password)).json()).toEqual({ error: MSG.accountDisabled });
  });

  it('logs in again once enabled', async () => {
    const { user, password } = await createUser(t.database.db);
    await disable(user.id);
    expect((await login(user.username, password)).statusCode).toBe(403);
    await disable(user.id, null);
    const cookie = await loginAs(t, user.username, password);
    expect((await checkSession(cookie)).json()).toMatchObject({ loggedIn: true, username: user.username });
  });
});
