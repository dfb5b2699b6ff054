import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerList } from '../../../shared/admin-customers.ts';
import { createUser } from '../../auth/testing.ts';
import { users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, insertOrder, makeAdmin } from '../orders/testing.ts';

// GET /api/admin/customers: search by username or email (any case, % and _ literal), newest first, 25 a
// page, and what each account bought: orders paid onwards (not pending, failed or cancelled) and their
// totals less refunds.

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await makeAdmin(t)).cookie;
});
afterAll(() => t.close());

async function list(query: string) {
  const res = await adminGet(t, `/api/admin/customers?${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return adminCustomerList.parse(res.json());
}

async function joinedAt(userId: number, at: Date) {
  await t.database.db.update(users).set({ createdAt: at }).where(eq(users.id, userId));
}

describe('GET /api/admin/customers', () => {
  it('counts the orders paid onwards and what they cost less refunds', async () => {
    const db = t.database.db;
    const { user } = await createUser(db, { username: 'Spender_One', email: 'spender@example.org' });
    await insertOrder(db, user.id, { status: 'paid' });
    await insertOrder(db, user.id, { status: 'queued' }, [{ lineTotalCents: 2500 }]);
    await insertOrder(db, user.id, { status: 'shipped', amountRefundedCents: 300 });
    // Not counted: refunded in full when cancelled, never paid, payment failed.
    await insertOrder(db, user.id, { status: 'cancelled', amountRefundedCents: 1200 });
    await insertOrder(db, user.id, { status: 'pending' });
    await insertOrder(db, user.id, { status: 'failed' });
    const { customers } = await list('q=spender_one');
    expect(customers).toEqual([
      {
        id: user.id,
        username: 'Spender_One',
        email: 'spender@example.org',
        verified: true,
        admin: false,
        disabled: false,
        orderCount: 3,
        spentCents: 1200 + 2500 + 900,
        joinedAt: user.createdAt.toISOString(),
      },
    ]);
  });

  it('shows who is verified, an admin or disabled; a new account has bought nothing', async () => {
    const db = t.database.db;
    const { user } = await createUser(db, { username: 'flags_x', verified: false, isAdmin: true });
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const [row] = (await list('q=flags_x')).customers;
    expect(row).toMatchObject({ verified: false, admin: true, disabled: true, orderCount: 0, spentCents: 0 });
  });

  it('finds a username or email part in any letter case, taking % and _ literally', async () => {
    const db = t.database.db;
    const under = (await createUser(db, { username: 'kim_lit', email: 'kim@lit.example' })).user;
    const other = (await createUser(db, { username: 'kimXlit', email: 'kimx@lit.example' })).user;
    const percent = (await createUser(db, { username: 'pct-a', email: '50%off@pct.example' })).user;
    (await createUser(db, { username: 'pct-b', email: '50xoff@pct.example' })).user;
    const ids = async (q: string) => (await list(`q=${encodeURIComponent(q)}`)).customers.map((c) => c.id);
    expect(await ids('M_L')).toEqual([under.id]);
    expect(await ids('KIMX')).toEqual([other.id]);
    expect(await ids('LIT.EXAMPLE')).toEqual(expect.arrayContaining([under.id, other.id]));
    expect(await ids('50%')).toEqual([percent.id]);
    expect(await ids('nobody-has-this')).toEqual([]);
    // Blank is no search.
    expect((await list('q=%20%20')).total).toBeGreaterThan(4);
  });

  it('lists newest first, 25 a page, with the total', async () => {
    const db = t.database.db;
    const made: number[] = [];
    for (let n = 0; n < 30; n++) {
      const { user } = await createUser(db, { username: `pager${String(n).padStart(2, '0')}` });
      await joinedAt(user.id, new Date(Date.UTC(2031, 0, 1 + n)));
      made.push(user.id);
    }
    const first = await list('q=pager');
    expect(first).toMatchObject({ total: 30, page: 1, pageSize: 25 });
    expect(first.customers.map((c) => c.id)).toEqual([...made].reverse().slice(0, 25));
    const second = await list('q=pager&page=2');
    expect(second.customers.map((c) => c.id)).toEqual([...made].reverse().slice(25));
    expect((await list('q=pager&page=9')).customers).toEqual([]);
  });

  it('refuses a bad page or an overlong search with 400', async () => {
    for (const query of ['page=0', 'page=-1', 'page=abc', `q=${'x'.repeat(201)}`]) {
      const res = await adminGet(t, `/api/admin/customers?${query}`, cookie);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toEqual(expect.any(String));
    }
  });
});
