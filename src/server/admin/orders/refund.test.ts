import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminOrderChanged } from '../../../shared/admin.ts';
import { countRows, createLoggedInUser, drainedMails } from '../../auth/testing.ts';
import { PaymentProviderError } from '../../checkout/payment-provider.ts';
import { type StripeFake, startStripeFake } from '../../checkout/testing/stripe-fake.ts';
import { orderItems, outbox, refunds } from '../../db/schema.ts';
import { REFUND_MSG } from '../../orders/refunds.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminPost, insertOrder, makeAdmin, orderRow, snapshot } from './testing.ts';

// POST /api/admin/orders/:id/refund through the simulator (answers at once) and Stripe (the local fake with
// the real stripe-node): partial refunds with a reason, never more than is left (400, nothing changes),
// the provider's refusal (502, the row stays failed) and silence (202, pending); the order's status stays.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let customer: Awaited<ReturnType<typeof createLoggedInUser>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
});
afterAll(() => t.close());

const refund = (app: TestApp, cookie: string, id: number, body: Record<string, unknown>) =>
  adminPost(app, `/api/admin/orders/${id}/refund`, body, cookie);

/** A printing order of two lines, 12.00 and 30.00, paid through the simulator. */
const twoLineOrder = () =>
  insertOrder(t.database.db, customer.user.id, { status: 'printing' }, [
    { fileName: 'a.stl' },
    { fileName: 'b.stl', quantity: 3, unitPriceCents: 1000, lineTotalCents: 3000 },
  ]);

describe('refunds through the simulator', () => {
  it('refunds part of an order with a reason, mails the customer, and leaves the status as it was', async () => {
    const order = await twoLineOrder();
    const [, second] = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    const mails = await countRows(t.database.db, outbox);
    const res = await refund(t, admin.cookie, order.id, {
      amountCents: 1000,
      reason: 'one piece arrived cracked',
      itemId: second!.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = adminOrderChanged.parse(res.json()).order;
    expect(detail).toMatchObject({ status: 'printing', amountRefundedCents: 1000, refundableCents: 3200 });
    expect(detail.refunds).toEqual([
      expect.objectContaining({
        amountCents: 1000,
        status: 'succeeded',
        reason: 'one piece arrived cracked',
        itemId: second!.id,
        actor: 'admin',
        actorName: admin.user.username,
        providerRefundId: expect.stringMatching(/^re_sim_/),
      }),
    ]);
    expect(detail.timeline.filter((e) => e.kind === 'refund')).toEqual([
      expect.objectContaining({
        amountCents: 1000,
        actorName: admin.user.username,
        text: 'Refunded $10.00 USD: one piece arrived cracked',
      }),
    ]);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
    const mail = (await drainedMails(t)).at(-1)!;
    expect(mail.headers.subject).toBe(`[TEST ORDER] Refund for order #${order.id}: $10.00 USD`);
    expect(mail.text).toContain('Reason: one piece arrived cracked');
    // My Orders shows it.
    const mine = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: customer.cookie } });
    expect(mine.json().find((o: { id: number }) => o.id === order.id)).toMatchObject({ amount_refunded: 10 });
  });

  it('refuses what the rules forbid with 400 and changes nothing', async () => {
    const order = await twoLineOrder();
    const other = await insertOrder(t.database.db, customer.user.id);
    const [otherItem] = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, other.id));
    const unpaid = await insertOrder(t.database.db, customer.user.id, { status: 'pending' });
    const before = await snapshot(t);
    const cases: [number, Record<string, unknown>, string][] = [
      [order.id, { amountCents: 4201, reason: 'too much' }, REFUND_MSG.tooMuch(4200, 'usd')],
      [order.id, { amountCents: 500 }, REFUND_MSG.reason],
      [order.id, { amountCents: 500, reason: '   ' }, REFUND_MSG.reason],
      [order.id, { amountCents: 500, reason: 'x', itemId: otherItem!.id }, REFUND_MSG.noItem],
      [order.id, { amountCents: 0, reason: 'x' }, 'The amount must be above zero.'],
      [order.id, { amountCents: 12.5, reason: 'x' }, 'The amount is in whole cents.'],
      [unpaid.id, { reason: 'x' }, REFUND_MSG.notPaid],
    ];
    for (const [id, body, error] of cases) {
      const res = await refund(t, admin.cookie, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    expect(await snapshot(t)).toEqual(before);
    const missing = await refund(t, admin.cookie, 987654, { reason: 'x' });
    expect(missing.statusCode).toBe(404);
  });

  it('refunds all that is left without an amount; another refund then is a 400 and changes nothing', async () => {
    const order = await twoLineOrder();
    expect((await refund(t, admin.cookie, order.id, { amountCents: 200, reason: 'late' })).statusCode).toBe(
      200,
    );
    const full = await refund(t, admin.cookie, order.id, {});
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json().order).toMatchObject({
      amountRefundedCents: 4200,
      refundableCents: 0,
      status: 'printing',
    });
    const before = await snapshot(t);
    for (const body of [{}, { amountCents: 1, reason: 'one more cent' }]) {
      const again = await refund(t, admin.cookie, order.id, body);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: REFUND_MSG.nothingLeft });
    }
    expect(await snapshot(t)).toEqual(before);
    expect((await orderRow(t, order.id)).amountRefundedCents).toBe(4200);
  });

  it('sends money back once when two refunds of all that is left are asked at once', async () => {
    const order = await twoLineOrder();
    const answers = await Promise.all([
      refund(t, admin.cookie, order.id, {}),
      refund(t, admin.cookie, order.id, {}),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows).toEqual([expect.objectContaining({ amountCents: 4200, status: 'succeeded' })]);
  });

  it('answers 202 with the refund pending when the provider does not answer', async () => {
    const order = await twoLineOrder();
    const spy = vi
      .spyOn(t.app.payments.provider, 'refund')
      .mockRejectedValueOnce(new PaymentProviderError('timeout'));
    const res = await refund(t, admin.cookie, order.id, { amountCents: 500, reason: 'scratch' });
    spy.mockRestore();
    expect(res.statusCode).toBe(202);
    expect(res.json().order).toMatchObject({ amountRefundedCents: 0, refundableCents: 3700 });
    expect(res.json().order.refunds).toEqual([
      expect.objectContaining({ status: 'pending', providerRefundId: null }),
    ]);
  });
});

describe('refunds through Stripe (the local fake)', () => {
  let fake: StripeFake;
  let s: TestApp;
  let stripeAdmin: Awaited<ReturnType<typeof makeAdmin>>;
  let buyer: number;
  beforeAll(async () => {
    fake = await startStripeFake();
    s = await buildTestApp({
      STRIPE_SECRET_KEY: 'sk_test_admin_refunds',
      STRIPE_WEBHOOK_SECRET: 'whsec_admin_refunds',
      STRIPE_API_BASE: fake.url,
    });
    stripeAdmin = await makeAdmin(s);
    buyer = (await createLoggedInUser(s)).user.id;
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.refundOutcome = 'succeeded';
    fake.failWith = null;
    fake.requests.length = 0;
  });

  let intents = 0;
  const stripeOrder = () =>
    insertOrder(s.database.db, buyer, {
      status: 'queued',
      paymentProvider: 'stripe',
      paymentIntentId: `pi_admin${process.pid}x${++intents}`,
    });

  it('refunds with an idempotency key naming the refund, and records Stripe’s id', async () => {
    const order = await stripeOrder();
    const res = await refund(s, stripeAdmin.cookie, order.id, { amountCents: 300, reason: 'goodwill' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await s.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(row).toMatchObject({
      status: 'succeeded',
      provider: 'stripe',
      providerRefundId: expect.stringMatching(/^re_/),
    });
    const call = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/refunds')!;
    expect(call.form.get('payment_intent')).toBe(order.paymentIntentId);
    expect(call.form.get('amount')).toBe('300');
    expect(call.headers['idempotency-key']).toMatch(new RegExp(`:refund:${row!.id}$`));
    expect(res.json().order).toMatchObject({ testMode: false, amountRefundedCents: 300 });
  });

  it('answers 502 when Stripe refuses: the refund stays failed and nothing is counted as refunded', async () => {
    const order = await stripeOrder();
    fake.refundOutcome = 'refuse';
    const res = await refund(s, stripeAdmin.cookie, order.id, {});
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatch(/^The payment service refused the refund: Stripe did not refund: /);
    const [row] = await s.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(row!.status).toBe('failed');
    expect((await orderRow(s, order.id)).amountRefundedCents).toBe(0);
  });

  it('answers 202 while Stripe says pending, or does not answer', async () => {
    const order = await stripeOrder();
    fake.refundOutcome = 'pending';
    const pending = await refund(s, stripeAdmin.cookie, order.id, { amountCents: 100, reason: 'a' });
    expect(pending.statusCode).toBe(202);
    fake.failWith = 500;
    const silent = await refund(s, stripeAdmin.cookie, order.id, { amountCents: 100, reason: 'b' });
    expect(silent.statusCode).toBe(202);
    const rows = await s.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(silent.json().order).toMatchObject({ amountRefundedCents: 0, refundableCents: 1000 });
  });
});
