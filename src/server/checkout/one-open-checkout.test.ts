import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../auth/testing.ts';
import { orderEvents, orderFlags, orderItems, orders, outbox, simulatorSessions } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { type StripeFake, signedEvent } from './testing/stripe-fake.ts';
import {
  type Customer,
  cartItem,
  makeCustomer,
  orderOfSession,
  paySimulator,
  post,
  type StripeShop,
  startCheckout,
  startStripeShop,
  uploadBox,
} from './testing.ts';

// One open checkout per customer (issue #23 §3): the same cart reuses its session, a changed cart's
// checkout replaces the open one (its session expired, the order cancelled with an event naming its
// successor), a payment that still arrives for it is flagged, never lost; a checkout that died before its
// session was recorded is asked again with the same idempotency key; the customer may cancel their own.

async function ordersOf(t: TestApp, customer: Customer) {
  return t.database.db.select().from(orders).where(eq(orders.userId, customer.id)).orderBy(orders.id);
}

async function listed(t: TestApp, customer: Customer) {
  const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: customer.cookie } });
  return res.json() as { id: number; status: string; payment_url: string | null; can_cancel: boolean }[];
}

describe('with the simulator', () => {
  let t: TestApp;
  let ann: Customer;
  let model: string;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    ann = await makeCustomer(t);
    model = await uploadBox(t, ann, 30, 'one.stl');
  });
  afterAll(() => t.close());

  it('two checkouts of a changed cart in a row leave one pending order; the first cannot be paid any more', async () => {
    const first = await startCheckout(t, ann, [cartItem(model, { quantity: 1 })]);
    // The same cart again (a double click, a second tab): the same session, no second order.
    const again = await startCheckout(t, ann, [cartItem(model, { quantity: 1 })]);
    expect(again.json().id).toBe(first.json().id);
    const second = await startCheckout(t, ann, [cartItem(model, { quantity: 2 })]);
    expect(second.statusCode).toBe(200);
    const rows = await ordersOf(t, ann);
    expect(rows.map((o) => o.status)).toEqual(['cancelled', 'pending']);
    const [old, current] = rows;
    expect(old!.cancelReason).toBe(`replaced by order #${current!.id}`);
    const [event] = await t.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, old!.id), eq(orderEvents.toStatus, 'cancelled')));
    expect(event).toMatchObject({
      actor: 'system',
      fromStatus: 'pending',
      metadata: { replacedBy: current!.id },
    });
    // Its hosted page is expired: paying it is refused, and the order stays cancelled.
    const [session] = await t.database.db
      .select()
      .from(simulatorSessions)
      .where(eq(simulatorSessions.id, first.json().id));
    expect(session!.status).toBe('expired');
    expect((await paySimulator(t, first.json().id)).statusCode).toBe(409);
    expect((await orderOfSession(t, first.json().id))!.status).toBe('cancelled');
    // My Orders shows one pending order with its 'Complete payment' link.
    const mine = await listed(t, ann);
    expect(mine.filter((o) => o.status === 'pending')).toHaveLength(1);
    expect(mine.find((o) => o.id === old!.id)).toMatchObject({ payment_url: null, can_cancel: false });
    expect(mine.find((o) => o.id === current!.id)).toMatchObject({ can_cancel: true });
  });

  it('a customer cancels their own pending order; not someone else’s, not a paid one', async () => {
    const bea = await makeCustomer(t);
    const beas = await uploadBox(t, bea, 31, 'bea.stl');
    const checkout = await startCheckout(t, bea, [cartItem(beas)]);
    const order = (await orderOfSession(t, checkout.json().id))!;
    const cancel = (who: Customer, id = order.id) => post(t, `/api/orders/${id}/cancel`, {}, who.cookie);
    // Another customer: 404, nothing changes.
    expect((await cancel(ann)).statusCode).toBe(404);
    expect((await orderOfSession(t, checkout.json().id))!.status).toBe('pending');
    // Logged out: 401; a bad id: 404.
    expect((await post(t, `/api/orders/${order.id}/cancel`, {})).statusCode).toBe(401);
    expect((await cancel(bea, 0)).statusCode).toBe(404);
    const res = await cancel(bea);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: order.id, status: 'cancelled' });
    expect((await orderOfSession(t, checkout.json().id))!.cancelReason).toBe('cancelled by the customer');
    expect((await paySimulator(t, checkout.json().id)).statusCode).toBe(409);
    // Twice: 409, one status event.
    expect((await cancel(bea)).statusCode).toBe(409);
    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, 'cancelled')));
    expect(events).toHaveLength(1);
    // A paid order cannot be cancelled by its customer.
    const paid = await startCheckout(t, bea, [cartItem(beas, { quantity: 3 })]);
    await paySimulator(t, paid.json().id);
    const paidOrder = (await orderOfSession(t, paid.json().id))!;
    const refused = await cancel(bea, paidOrder.id);
    expect(refused.statusCode).toBe(409);
    expect((await orderOfSession(t, paid.json().id))!.status).toBe('paid');
  });

  it('asks the provider again with the same key when the first checkout died before recording its session', async () => {
    const cy = await makeCustomer(t);
    const cys = await uploadBox(t, cy, 32, 'cy.stl');
    const first = await startCheckout(t, cy, [cartItem(cys)]);
    const order = (await orderOfSession(t, first.json().id))!;
    // A restart at the wrong moment: the provider made the session, the shop never recorded it.
    await t.database.db
      .update(orders)
      .set({ paymentSessionId: null, paymentUrl: null, paymentExpiresAt: null })
      .where(eq(orders.id, order.id));
    const sessions = await countRows(t.database.db, simulatorSessions);
    const retry = await startCheckout(t, cy, [cartItem(cys)]);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().id).toBe(first.json().id);
    expect(await countRows(t.database.db, simulatorSessions)).toBe(sessions);
    expect((await ordersOf(t, cy)).map((o) => [o.id, o.status, o.paymentSessionId])).toEqual([
      [order.id, 'pending', first.json().id],
    ]);
  });

  it('refuses an order over the cap with a clear 400 and creates nothing', async () => {
    const capped = await buildTestApp({ RATE_LIMIT_SCALE: '100', MAX_ORDER_TOTAL_USD: '100' });
    try {
      const dee = await makeCustomer(capped);
      const big = await uploadBox(capped, dee, 60, 'big.stl');
      const before = {
        orders: await countRows(capped.database.db, orders),
        items: await countRows(capped.database.db, orderItems),
        events: await countRows(capped.database.db, orderEvents),
        sessions: await countRows(capped.database.db, simulatorSessions),
      };
      const res = await startCheckout(capped, dee, [cartItem(big, { quantity: 20, strength: 5 })]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(
        'This order comes to more than we can take online ($100.00). Please contact us for a quote.',
      );
      expect({
        orders: await countRows(capped.database.db, orders),
        items: await countRows(capped.database.db, orderItems),
        events: await countRows(capped.database.db, orderEvents),
        sessions: await countRows(capped.database.db, simulatorSessions),
      }).toEqual(before);
    } finally {
      await capped.close();
    }
  });
});

describe('with Stripe (the local fake)', () => {
  let shop: StripeShop;
  let fake: StripeFake;
  let t: TestApp;
  let model: string;
  let eve: Customer;
  beforeAll(async () => {
    shop = await startStripeShop();
    ({ fake, t } = shop);
    eve = await makeCustomer(t);
    model = await uploadBox(t, eve, 30, 'eve.stl');
  });
  afterAll(() => shop.close());
  beforeEach(() => {
    fake.failWith = null;
  });
  const deliver = (e: { payload: string; signature: string }) => shop.deliver(e);

  it('expires the replaced session at Stripe; a payment that still arrives for it is flagged, not lost', async () => {
    const first = (await startCheckout(t, eve, [cartItem(model)])).json().id as string;
    // Stripe cannot be reached while the cart changes: the old order is cancelled all the same.
    fake.failWith = 500;
    const failing = await startCheckout(t, eve, [cartItem(model, { quantity: 2 })]);
    expect(failing.statusCode).toBe(502);
    fake.failWith = null;
    expect((await orderOfSession(t, first))!.status).toBe('pending');
    const second = (await startCheckout(t, eve, [cartItem(model, { quantity: 2 })])).json().id as string;
    expect(fake.requests.some((r) => r.path === `/v1/checkout/sessions/${first}/expire`)).toBe(true);
    expect(fake.sessions.get(first)!.status).toBe('expired');
    expect((await orderOfSession(t, first))!.status).toBe('cancelled');
    // The customer had the old page open and Stripe took the money anyway (say, expiry raced the payment).
    fake.pay(first);
    const mails = await countRows(t.database.db, outbox);
    const e = signedEvent(shop.webhookSecret, 'checkout.session.completed', fake.sessions.get(first));
    expect((await deliver(e)).statusCode).toBe(200);
    const old = (await orderOfSession(t, first))!;
    expect(old.status).toBe('cancelled');
    expect(old.amountPaidCents).toBe(old.totalCents);
    const flags = await t.database.db.select().from(orderFlags).where(eq(orderFlags.orderId, old.id));
    expect(flags.map((f) => f.kind)).toEqual(['paid_after_cancel']);
    expect(flags[0]!.details).toMatch(/replaced by order #\d+/);
    // One mail: to the shop about the flag; no confirmation to the customer.
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
    expect((await orderOfSession(t, second))!.status).toBe('pending');
  });

  it('fulfils, instead of cancelling, an open checkout the customer paid just before changing the cart', async () => {
    const fay = await makeCustomer(t);
    const fays = await uploadBox(t, fay, 33, 'fay.stl');
    const first = (await startCheckout(t, fay, [cartItem(fays)])).json().id as string;
    fake.pay(first);
    const second = await startCheckout(t, fay, [cartItem(fays, { quantity: 4 })]);
    expect(second.statusCode).toBe(200);
    expect((await orderOfSession(t, first))!.status).toBe('paid');
    expect((await orderOfSession(t, second.json().id))!.status).toBe('pending');
  });

  it('makes one Stripe Customer per account and passes it, so Checkout can prefill a returning customer', async () => {
    const gus = await makeCustomer(t);
    const guss = await uploadBox(t, gus, 34, 'gus.stl');
    const customersBefore = fake.customers.size;
    await startCheckout(t, gus, [cartItem(guss)]);
    await startCheckout(t, gus, [cartItem(guss, { quantity: 2 })]);
    expect(fake.customers.size).toBe(customersBefore + 1);
    const made = fake.requests
      .filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST')
      .slice(-2);
    const ids = made.map((r) => r.form.get('customer'));
    expect(ids[0]).toMatch(/^cus_/);
    expect(ids[1]).toBe(ids[0]);
    expect(made[0]!.form.get('customer_update[shipping]')).toBe('auto');
    expect(made[0]!.form.has('customer_email')).toBe(false);
    // The idempotency keys carry this installation's id.
    expect(made[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{16}:order:\d+$/);
  });
});
