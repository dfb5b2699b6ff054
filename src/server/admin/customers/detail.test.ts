import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerDetail } from '../../../shared/admin-customers.ts';
import { createLoggedInUser, createUser } from '../../auth/testing.ts';
import { accountEvents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, insertOrder, makeAdmin } from '../orders/testing.ts';
import { customerUrl } from './testing.ts';

// GET /api/admin/customers/:id: the account's facts, its orders newest first (linked by id) and what staff
// did to it, newest first, with who.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const get = (id: number | string) => adminGet(t, customerUrl(id), admin.cookie);

describe('GET /api/admin/customers/:id', () => {
  it('shows the account, its orders and its history with who and when', async () => {
    const db = t.database.db;
    const { user } = await createLoggedInUser(t, { username: 'detail_ann' });
    const old = await insertOrder(db, user.id, {
      status: 'shipped',
      amountRefundedCents: 200,
      createdAt: new Date('2030-01-02T10:00:00Z'),
    });
    const newer = await insertOrder(db, user.id, {
      status: 'pending',
      createdAt: new Date('2030-02-02T10:00:00Z'),
    });
    await db.insert(accountEvents).values([
      { userId: user.id, action: 'verified', actorUserId: admin.user.id, createdAt: new Date('2030-03-01') },
      {
        userId: user.id,
        action: 'admin_granted',
        actorUserId: null,
        note: 'by the CLI',
        createdAt: new Date('2030-03-02'),
      },
    ]);
    const res = await get(user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const detail = adminCustomerDetail.parse(res.json());
    expect(detail.customer).toMatchObject({
      id: user.id,
      username: 'detail_ann',
      verified: true,
      admin: false,
      disabled: false,
      disabledAt: null,
      orderCount: 1,
      spentCents: 1000,
      openSessions: 1,
      allOrders: 2,
    });
    expect(detail.customer.verifiedAt).toEqual(expect.any(String));
    expect(detail.orders).toEqual([
      {
        id: newer.id,
        createdAt: '2030-02-02T10:00:00.000Z',
        status: 'pending',
        totalCents: 1200,
        refundedCents: 0,
        currency: 'usd',
        testMode: false,
      },
      {
        id: old.id,
        createdAt: '2030-01-02T10:00:00.000Z',
        status: 'shipped',
        totalCents: 1200,
        refundedCents: 200,
        currency: 'usd',
        testMode: true,
      },
    ]);
    expect(detail.events).toEqual([
      expect.objectContaining({ action: 'admin_granted', actorName: null, note: 'by the CLI' }),
      expect.objectContaining({ action: 'verified', actorName: admin.user.username, note: null }),
    ]);
    expect(detail.isYou).toBe(false);
  });

  it("says when the account is the admin's own", async () => {
    const detail = adminCustomerDetail.parse((await get(admin.user.id)).json());
    expect(detail).toMatchObject({ isYou: true, customer: { admin: true, username: admin.user.username } });
  });

  it('answers 404 for an unknown id or one that is not an id', async () => {
    const { user } = await createUser(t.database.db);
    for (const id of [user.id + 1000, 0, -1, 'abc', '1.5', '99999999999']) {
      const res = await get(id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json(), String(id)).toEqual({ error: 'Customer not found.' });
    }
  });
});
