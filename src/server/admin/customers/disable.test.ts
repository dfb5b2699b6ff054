import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCustomerChanged } from '../../../shared/admin-customers.ts';
import { createLoggedInUser, loginAs, postJson } from '../../auth/testing.ts';
import {
  type Customer,
  cartItem,
  orderOfSession,
  paySimulator,
  type StripeShop,
  startCheckout,
  startStripeShop,
  uploadBox,
} from '../../checkout/testing.ts';
import { orderEvents, sessions, simulatorSessions } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin, orderRow, paidOrder } from '../orders/testing.ts';
import { accountsSnapshot, change, eventsOf, userRow } from './testing.ts';

// POST /api/admin/customers/:id/disable { value }: a disabled account's sessions end at once, it cannot log
// in (403 with a sentence), its open checkouts are expired at the provider and cancelled; enabling lets it
// log in again. Never one's own account. Each change on the account's history with who and when.

const DISABLED = { error: 'This account is disabled. Please contact us.' };

const checkSession = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/check_session.php', headers: { cookie } });

/** A customer logged in twice (two browsers), with a model uploaded. */
async function customerWithTwoSessions(t: TestApp) {
  const first = await createLoggedInUser(t);
  const second = await loginAs(t, first.user.username, first.password);
  const customer: Customer = { id: first.user.id, cookie: first.cookie };
  const model = await uploadBox(t, customer, 20);
  return { ...first, customer, cookies: [first.cookie, second], model };
}

async function statusEvents(t: TestApp, orderId: number) {
  return t.database.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'status')));
}

describe('with the simulator', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    admin = await makeAdmin(t);
  });
  afterAll(() => t.close());

  it('ends every session at once, refuses the login, cancels the open checkout and keeps paid orders', async () => {
    const c = await customerWithTwoSessions(t);
    const paid = await paidOrder(t, c.customer, c.model);
    const open = await startCheckout(t, c.customer, [cartItem(c.model, { quantity: 3 })]);
    expect(open.statusCode, open.body).toBe(200);
    const sessionId = open.json().id as string;
    const pending = (await orderOfSession(t, sessionId))!;
    for (const cookie of c.cookies) expect((await checkSession(t, cookie)).statusCode).toBe(200);

    const res = await change(t, c.user.id, 'disable', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = adminCustomerChanged.parse(res.json());
    expect(body.message).toBe(
      `${c.user.username}'s account is disabled: 2 sessions ended; open checkout cancelled: #${pending.id}.`,
    );
    expect(body.detail.customer).toMatchObject({ disabled: true, openSessions: 0 });

    // Both browsers are logged out on their next request; no session row is left.
    for (const cookie of c.cookies) {
      const check = await checkSession(t, cookie);
      expect(check.statusCode).toBe(401);
      expect(check.json()).toEqual({ loggedIn: false });
    }
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, c.user.id))).toEqual([]);
    // The right password is refused with the sentence.
    const login = await postJson(t, '/api/login.php', { username: c.user.username, password: c.password });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual(DISABLED);

    // The open checkout: expired at the provider, cannot be paid, the order cancelled by this admin.
    const [hosted] = await t.database.db
      .select()
      .from(simulatorSessions)
      .where(eq(simulatorSessions.id, sessionId));
    expect(hosted?.status).toBe('expired');
    expect((await paySimulator(t, sessionId)).statusCode).toBe(409);
    expect(await orderRow(t, pending.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'account disabled',
      paymentUrl: null,
    });
    expect((await statusEvents(t, pending.id)).at(-1)).toMatchObject({
      fromStatus: 'pending',
      toStatus: 'cancelled',
      actor: 'admin',
      actorUserId: admin.user.id,
    });
    expect((await orderRow(t, paid)).status).toBe('paid');

    // The history: who disabled it, when, and what it ended.
    const [event] = await eventsOf(t, c.user.id);
    expect(event).toMatchObject({
      action: 'disabled',
      actorUserId: admin.user.id,
      note: `2 sessions ended; open checkout cancelled: #${pending.id}.`,
    });
    expect(body.detail.events[0]).toMatchObject({ action: 'disabled', actorName: admin.user.username });
  });

  it('enables the account again: the customer logs in, and the history has both changes', async () => {
    const c = await customerWithTwoSessions(t);
    expect((await change(t, c.user.id, 'disable', { value: true }, admin.cookie)).statusCode).toBe(200);
    const res = await change(t, c.user.id, 'disable', { value: false }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`${c.user.username}'s account is enabled: they can log in again.`);
    expect((await userRow(t, c.user.id)).disabledAt).toBeNull();
    // The sessions it had stay ended; a new login works.
    expect((await checkSession(t, c.cookies[0]!)).statusCode).toBe(401);
    const cookie = await loginAs(t, c.user.username, c.password);
    expect((await checkSession(t, cookie)).json()).toMatchObject({ loggedIn: true });
    expect((await eventsOf(t, c.user.id)).map((e) => [e.action, e.actorUserId])).toEqual([
      ['disabled', admin.user.id],
      ['enabled', admin.user.id],
    ]);
  });

  it('disables another admin, whose admin session ends too', async () => {
    const other = await makeAdmin(t);
    const res = await change(t, other.user.id, 'disable', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`${other.user.username}'s account is disabled: 1 session ended.`);
    const panel = await t.app.inject({ url: '/api/admin/customers', headers: { cookie: other.cookie } });
    expect(panel.statusCode).toBe(401);
  });

  it('refuses your own account, one disabled already and one enabled already with 409, changing nothing', async () => {
    const c = await customerWithTwoSessions(t);
    expect((await change(t, c.user.id, 'disable', { value: true }, admin.cookie)).statusCode).toBe(200);
    const enabled = await createLoggedInUser(t);
    const before = await accountsSnapshot(t);
    const self = await change(t, admin.user.id, 'disable', { value: true }, admin.cookie);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ error: 'You cannot disable your own account.' });
    const twice = await change(t, c.user.id, 'disable', { value: true }, admin.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: `${c.user.username}'s account is disabled already.` });
    const enable = await change(t, enabled.user.id, 'disable', { value: false }, admin.cookie);
    expect(enable.statusCode).toBe(409);
    expect(enable.json()).toEqual({ error: `${enabled.user.username}'s account is enabled already.` });
    for (const body of [{}, { value: 'yes' }, { value: 0 }]) {
      const res = await change(t, enabled.user.id, 'disable', body, admin.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await change(t, 424242, 'disable', { value: true }, admin.cookie)).statusCode).toBe(404);
    expect(await accountsSnapshot(t)).toEqual(before);
    expect((await checkSession(t, enabled.cookie)).statusCode).toBe(200);
    expect((await checkSession(t, admin.cookie)).statusCode).toBe(200);
  });
});

describe('on Stripe', () => {
  let shop: StripeShop;
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  beforeAll(async () => {
    shop = await startStripeShop();
    admin = await makeAdmin(shop.t);
  });
  afterAll(() => shop.close());

  async function openCheckout() {
    const c = await customerWithTwoSessions(shop.t);
    const res = await startCheckout(shop.t, c.customer, [cartItem(c.model)]);
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().id as string;
    return { c, sessionId, order: (await orderOfSession(shop.t, sessionId))! };
  }

  it("expires the open checkout's Stripe session and cancels the order", async () => {
    const { c, sessionId, order } = await openCheckout();
    const res = await change(shop.t, c.user.id, 'disable', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(shop.fake.sessions.get(sessionId)?.status).toBe('expired');
    expect((await orderRow(shop.t, order.id)).status).toBe('cancelled');
  });

  it('keeps a checkout paid just before the disable: the order is paid, not cancelled', async () => {
    const { c, sessionId, order } = await openCheckout();
    shop.fake.pay(sessionId);
    const res = await change(shop.t, c.user.id, 'disable', { value: true }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(new RegExp(`paid just before, so kept: #${order.id}\\.$`));
    expect((await orderRow(shop.t, order.id)).status).toBe('paid');
    expect((await userRow(shop.t, c.user.id)).disabledAt).not.toBeNull();
  });

  it('cancels the order all the same when Stripe cannot be reached; the account is disabled', async () => {
    const { c, order } = await openCheckout();
    shop.fake.failWith = 503;
    try {
      const res = await change(shop.t, c.user.id, 'disable', { value: true }, admin.cookie);
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      shop.fake.failWith = null;
    }
    expect((await orderRow(shop.t, order.id)).status).toBe('cancelled');
    for (const cookie of c.cookies) expect((await checkSession(shop.t, cookie)).statusCode).toBe(401);
  });
});
