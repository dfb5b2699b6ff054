import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerChanged } from '../../../shared/admin-customers.ts';
import { createLoggedInUser, createUser } from '../../auth/testing.ts';
import { users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, makeAdmin } from '../orders/testing.ts';
import { accountsSnapshot, change, eventsOf, userRow } from './testing.ts';

// POST /api/admin/customers/:id/admin { value }: grant or revoke admin access, never the last admin who can
// log in and never one's own, each change on the account's history with who and when.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const canUseThePanel = async (cookie: string) =>
  (await adminGet(t, '/api/admin/customers', cookie)).statusCode === 200;

describe('POST /api/admin/customers/:id/admin', () => {
  it('grants admin access, which works from the next request, and records who granted it', async () => {
    const customer = await createLoggedInUser(t);
    expect(await canUseThePanel(customer.cookie)).toBe(false);
    const res = await change(t, customer.user.id, 'admin', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = adminCustomerChanged.parse(res.json());
    expect(body.message).toBe(`${customer.user.username} is now an admin.`);
    expect(body.detail.customer.admin).toBe(true);
    expect(await canUseThePanel(customer.cookie)).toBe(true);
    expect(await eventsOf(t, customer.user.id)).toEqual([
      expect.objectContaining({ action: 'admin_granted', actorUserId: admin.user.id }),
    ]);
  });

  it('revokes another admin, whose next admin call is refused, and records who revoked it', async () => {
    const other = await makeAdmin(t);
    const res = await change(t, other.user.id, 'admin', { value: false }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`${other.user.username} is no longer an admin.`);
    expect((await adminGet(t, '/api/admin/customers', other.cookie)).statusCode).toBe(403);
    expect((await userRow(t, other.user.id)).isAdmin).toBe(false);
    const [event] = await eventsOf(t, other.user.id);
    expect(event).toMatchObject({ action: 'admin_revoked', actorUserId: admin.user.id });
    expect(event?.createdAt).toBeInstanceOf(Date);
  });

  it('refuses to revoke your own admin access with 409, changing nothing', async () => {
    await makeAdmin(t);
    const before = await accountsSnapshot(t);
    const res = await change(t, admin.user.id, 'admin', { value: false }, admin.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'You cannot revoke your own admin access: ask another admin to do it.',
    });
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('refuses a change that changes nothing (409) and a bad body (400)', async () => {
    const { user } = await createUser(t.database.db);
    const other = await makeAdmin(t);
    const before = await accountsSnapshot(t);
    const grant = await change(t, other.user.id, 'admin', { value: true }, admin.cookie);
    expect(grant.statusCode).toBe(409);
    expect(grant.json()).toEqual({ error: `${other.user.username} is an admin already.` });
    const revoke = await change(t, user.id, 'admin', { value: false }, admin.cookie);
    expect(revoke.statusCode).toBe(409);
    expect(revoke.json()).toEqual({ error: `${user.username} is not an admin.` });
    for (const body of [{}, { value: 'true' }, { value: 1 }, { value: null }]) {
      const res = await change(t, user.id, 'admin', body, admin.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: 'value must be true or false.' });
    }
    expect((await change(t, 999999, 'admin', { value: true }, admin.cookie)).statusCode).toBe(404);
    expect(await accountsSnapshot(t)).toEqual(before);
  });

  it('gives two admins revoking each other at once one revocation: an admin is always left', async () => {
    const a = await makeAdmin(t);
    const b = await makeAdmin(t);
    const [ab, ba] = await Promise.all([
      change(t, b.user.id, 'admin', { value: false }, a.cookie),
      change(t, a.user.id, 'admin', { value: false }, b.cookie),
    ]);
    expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 403]);
    const rows = await t.database.db.select().from(users).where(eq(users.isAdmin, true));
    expect(rows.map((u) => u.id)).toContain(ab.statusCode === 200 ? a.user.id : b.user.id);
    const events = [...(await eventsOf(t, a.user.id)), ...(await eventsOf(t, b.user.id))];
    expect(events).toHaveLength(1);
  });
});

describe('the last admin', () => {
  let solo: TestApp;
  beforeAll(async () => {
    solo = await buildTestApp();
  });
  afterAll(() => solo.close());

  it('cannot be revoked, also when the only other admin is disabled (409, nothing changes)', async () => {
    const only = await makeAdmin(solo);
    const res = await change(solo, only.user.id, 'admin', { value: false }, only.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: `${only.user.username} is the last admin who can log in: make someone else an admin first.`,
    });
    const disabledAdmin = (await createUser(solo.database.db, { isAdmin: true })).user;
    await solo.database.db
      .update(users)
      .set({ disabledAt: new Date() })
      .where(eq(users.id, disabledAdmin.id));
    const before = await accountsSnapshot(solo);
    expect((await change(solo, only.user.id, 'admin', { value: false }, only.cookie)).statusCode).toBe(409);
    expect(await accountsSnapshot(solo)).toEqual(before);
    expect((await userRow(solo, only.user.id)).isAdmin).toBe(true);
    // A disabled admin's access can still be revoked: it leaves the admins who can log in as they were.
    const revoke = await change(solo, disabledAdmin.id, 'admin', { value: false }, only.cookie);
    expect(revoke.statusCode, revoke.body).toBe(200);
  });
});
