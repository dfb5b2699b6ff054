import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../auth/testing.ts';
import { orderEvents, orderFlags, orders, outbox, paymentEvents, refunds } from '../db/schema.ts';
import { captureLog, LEVEL } from '../testing/log-capture.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { reconcilePendingOrders } from './reconcile.ts';
import { type StripeFake, signedEvent, startStripeFake } from './testing/stripe-fake.ts';
import {
  type Customer,
  cartItem,
  makeCustomer,
  orderOfSession,
  startCheckout,
  uploadBox,
} from './testing.ts';
import { WEBHOOK_PATH } from './webhook-route.ts';

// POST /api/payments/stripe/webhook with real signatures (stripe.webhooks.generateTestHeaderString), the
// session read back from a local Stripe fake: docs/security.md 35-41 and promises 1, 2, 4 and 6.

const SECRET_KEY = 'sk_test_webhook_suite';
const WEBHOOK_SECRET = 'whsec_test_webhook_suite';

let fake: StripeFake;
let t: TestApp;
let customer: Customer;
let model: string;
beforeAll(async () => {
  fake = await startStripeFake();
  t = await buildTestApp({
    RATE_LIMIT_SCALE: '100',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  });
  customer = await makeCustomer(t);
  model = await uploadBox(t, customer, 30, 'hook.stl');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.failWith = null;
});

let quantity = 0;
/** A new pending order with its Stripe session (a new quantity each time, so no session is reused). */
async function newCheckout(): Promise<string> {
  quantity++;
  const res = await startCheckout(t, customer, [cartItem(model, { quantity })]);
  expect(res.statusCode).toBe(200);
  return res.json().id;
}

function deliver(payload: string, signature?: string, app = t) {
  return app.app.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });
}

const sessionEvent = (type: string, sessionId: string, options: { id?: string; timestamp?: number } = {}) =>
  signedEvent(WEBHOOK_SECRET, type, fake.sessions.get(sessionId), options);

/** Everything a webhook could change, for "nothing changed" checks. */
async function state(sessionId: string) {
  const db = t.database.db;
  const order = await orderOfSession(t, sessionId);
  const flags = order
    ? await db
        .select({ kind: orderFlags.kind })
        .from(orderFlags)
        .where(and(eq(orderFlags.orderId, order.id), isNull(orderFlags.resolvedAt)))
    : [];
  return {
    order: {
      status: order?.status,
      flags: flags.map((f) => f.kind),
      amountPaid: order?.amountPaidCents,
      refunded: order?.amountRefundedCents,
      intent: order?.paymentIntentId,
      shippingName: order?.shippingName,
    },
    /** Status changes only (mails and flags have their own counts). */
    events: (await db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.kind, 'status')))
      .length,
    paymentEvents: await countRows(db, paymentEvents),
    mails: await countRows(db, outbox),
  };
}

/** Mails queued to the shop's own address whose subject says an order needs review. */
async function staffMails(orderId: number): Promise<string[]> {
  const rows = await t.database.db
    .select({ subject: sql<string>`${outbox.payload}->>'subject'` })
    .from(outbox)
    .where(sql`${outbox.payload}->>'subject' like ${`Order #${orderId} needs review:%`}`);
  return rows.map((r) => r.subject);
}

/** How many confirmation mails were queued for the order of a session. */
async function confirmationsOf(sessionId: string): Promise<number> {
  const order = await orderOfSession(t, sessionId);
  const rows = await t.database.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(sql`${outbox.payload}->>'subject' like ${`Order #${order!.id} confirmed%`}`);
  return rows.length;
}

describe('signatures (docs/security.md 36)', () => {
  it('refuses a missing, forged, re-serialised or stale signature, or one dated ahead, with 400, changing nothing', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const before = await state(id);
    const good = sessionEvent('checkout.session.completed', id);
    const forged = signedEvent('whsec_someone_else', 'checkout.session.completed', fake.sessions.get(id));
    const reserialised = JSON.stringify(JSON.parse(good.payload), null, 2);
    const stale = sessionEvent('checkout.session.completed', id, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    // Dated beyond the tolerance ahead: Stripe's library alone would take it (and for that long).
    const ahead = sessionEvent('checkout.session.completed', id, {
      timestamp: Math.floor(Date.now() / 1000) + 301,
    });
    const farAhead = sessionEvent('checkout.session.completed', id, {
      timestamp: Math.floor(Date.now() / 1000) + 365 * 86_400,
    });
    for (const [payload, signature] of [
      [good.payload, undefined],
      [good.payload, 't=1,v1=deadbeef'],
      [forged.payload, forged.signature],
      [reserialised, good.signature],
      [stale.payload, stale.signature],
      [ahead.payload, ahead.signature],
      [farAhead.payload, farAhead.signature],
    ] as const) {
      const res = await deliver(payload, signature);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid signature.' });
    }
    expect(await state(id)).toEqual(before);
    // The genuine delivery still works afterwards.
    expect((await deliver(good.payload, good.signature)).statusCode).toBe(200);
    expect((await state(id)).order.status).toBe('paid');
  });

  it('answers 404 without Stripe in use: rate-limited, no error line, nothing stored', async () => {
    const log = captureLog();
    const simulator = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    try {
      const e = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', { id: 'cs_test_x' });
      for (let i = 0; i < 20; i++) {
        const res = await deliver(e.payload, e.signature, simulator);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Not found.' });
      }
      expect(await countRows(simulator.database.db, paymentEvents)).toBe(0);
      const about = (l: { msg?: string }) => !(l.msg ?? '').startsWith('no built client');
      expect(log.entries().filter((l) => l.level >= LEVEL.warn && about(l))).toEqual([]);
      // Rate-limited like any open door: 600 a minute per address, scaled.
      let limited = 0;
      for (let i = 0; i < 600 && limited === 0; i++) {
        if ((await deliver('{}', undefined, simulator)).statusCode === 429) limited++;
      }
      expect(limited).toBe(1);
    } finally {
      await simulator.close();
    }
  });
});

describe('checkout.session events', () => {
  it('pays an order once for an event delivered twice, one after the other and at the same time (37)', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const before = await state(id);
    const event = sessionEvent('checkout.session.completed', id);
    const first = await deliver(event.payload, event.signature);
    const second = await deliver(event.payload, event.signature);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toMatchObject({ duplicate: true });
    const after = await state(id);
    const order = await orderOfSession(t, id);
    expect(after.order).toEqual({
      status: 'paid',
      flags: [],
      amountPaid: order!.totalCents,
      refunded: 0,
      intent: fake.sessions.get(id)!.payment_intent,
      shippingName: 'Ada Lovelace',
    });
    expect(order).toMatchObject({ shippingCity: 'Madison', shippingState: 'WI', shippingCountry: 'US' });
    expect(after.events).toBe(before.events + 1);
    expect(after.mails).toBe(before.mails + 1);
    expect(after.paymentEvents).toBe(before.paymentEvents + 1);

    const id2 = await newCheckout();
    fake.pay(id2);
    const before2 = await state(id2);
    const event2 = sessionEvent('checkout.session.completed', id2);
    const answers = await Promise.all([1, 2, 3].map(() => deliver(event2.payload, event2.signature)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const after2 = await state(id2);
    expect(after2.order.status).toBe('paid');
    expect(after2.events).toBe(before2.events + 1);
    expect(after2.mails).toBe(before2.mails + 1);
    // Distinct events for one session (completed, then async succeeded): still one transition, one mail.
    const late = sessionEvent('checkout.session.async_payment_succeeded', id2);
    expect((await deliver(late.payload, late.signature)).statusCode).toBe(200);
    expect((await state(id2)).mails).toBe(after2.mails);
  });

  it('leaves an unpaid completed session pending; a later async success pays it (38)', async () => {
    const id = await newCheckout();
    Object.assign(fake.sessions.get(id)!, { status: 'complete', payment_status: 'unpaid' });
    const before = await state(id);
    const completed = sessionEvent('checkout.session.completed', id);
    expect((await deliver(completed.payload, completed.signature)).statusCode).toBe(200);
    expect((await state(id)).order.status).toBe('pending');
    expect((await state(id)).mails).toBe(before.mails);
    fake.pay(id);
    const succeeded = sessionEvent('checkout.session.async_payment_succeeded', id);
    expect((await deliver(succeeded.payload, succeeded.signature)).statusCode).toBe(200);
    expect((await state(id)).order.status).toBe('paid');
  });

  it('fails a failed async payment and cancels an expired session', async () => {
    const failedId = await newCheckout();
    Object.assign(fake.sessions.get(failedId)!, { status: 'complete', payment_status: 'unpaid' });
    const failed = sessionEvent('checkout.session.async_payment_failed', failedId);
    expect((await deliver(failed.payload, failed.signature)).statusCode).toBe(200);
    expect((await state(failedId)).order.status).toBe('failed');

    const expiredId = await newCheckout();
    Object.assign(fake.sessions.get(expiredId)!, { status: 'expired' });
    const expired = sessionEvent('checkout.session.expired', expiredId);
    expect((await deliver(expired.payload, expired.signature)).statusCode).toBe(200);
    expect((await state(expiredId)).order.status).toBe('cancelled');
  });

  it('never moves a paid order back: expired or failed events after payment change nothing (38, promise 6)', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const paid = sessionEvent('checkout.session.completed', id);
    await deliver(paid.payload, paid.signature);
    const after = await state(id);
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      const e = signedEvent(WEBHOOK_SECRET, type, {
        ...fake.sessions.get(id),
        status: 'expired',
        payment_status: 'unpaid',
      });
      // Stripe's session as read back is what counts; make it say the worst too.
      Object.assign(fake.sessions.get(id)!, { status: 'expired', payment_status: 'unpaid' });
      expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
    }
    const now = await state(id);
    expect(now.order).toEqual(after.order);
    expect(now.events).toBe(after.events);
    expect(now.mails).toBe(after.mails);
  });

  it('flags an order whose paid amount or currency differs, and does not mark it paid (39)', async () => {
    for (const overrides of [{ amount_total: 1 }, { currency: 'eur' }]) {
      const id = await newCheckout();
      fake.pay(id, overrides);
      const before = await state(id);
      const e = sessionEvent('checkout.session.completed', id);
      expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
      const after = await state(id);
      expect(after.order.status).toBe('pending');
      expect(after.order.flags).toEqual(['amount_mismatch']);
      const order = await orderOfSession(t, id);
      // The customer gets no confirmation; staff get one mail about the flag.
      expect(await confirmationsOf(id)).toBe(0);
      expect(after.mails).toBe(before.mails + 1);
      expect(await staffMails(order!.id)).toEqual([`Order #${order!.id} needs review: Paid amount differs`]);
      // The same event again flags nothing more and mails nobody.
      expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
      expect((await state(id)).mails).toBe(after.mails);
      // A flagged order waits for staff: the reconcile job leaves it alone.
      expect((await orderOfSession(t, id))!.amountPaidCents).toBe(fake.sessions.get(id)!.amount_total);
    }
  });

  it('trusts the session read back from Stripe, not the event payload (promise 4)', async () => {
    const id = await newCheckout();
    // A validly signed event claiming payment for a session Stripe says is unpaid.
    const lie = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', {
      ...fake.sessions.get(id),
      status: 'complete',
      payment_status: 'paid',
    });
    expect((await deliver(lie.payload, lie.signature)).statusCode).toBe(200);
    expect((await state(id)).order.status).toBe('pending');
  });

  it('answers 500 on a database error and keeps nothing; the retried event is applied (40)', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const before = await state(id);
    const e = sessionEvent('checkout.session.completed', id);
    await t.database.db.execute(sql`alter table outbox rename to outbox_away`);
    let res: Awaited<ReturnType<typeof deliver>>;
    try {
      res = await deliver(e.payload, e.signature);
    } finally {
      await t.database.db.execute(sql`alter table outbox_away rename to outbox`);
    }
    expect(res.statusCode).toBe(500);
    expect(await state(id)).toEqual(before);
    expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
    const after = await state(id);
    expect(after.order.status).toBe('paid');
    expect(after.mails).toBe(before.mails + 1);
  });

  it('answers 500 when Stripe cannot be asked, so the event is delivered again', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const before = await state(id);
    const e = sessionEvent('checkout.session.completed', id);
    fake.failWith = 500;
    expect((await deliver(e.payload, e.signature)).statusCode).toBe(500);
    expect(await state(id)).toEqual(before);
  });
});

describe('other events', () => {
  it('records a refund made in the dashboard once, however often Stripe tells it, with one flag and one staff mail', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const paid = sessionEvent('checkout.session.completed', id);
    await deliver(paid.payload, paid.signature);
    const order = (await orderOfSession(t, id))!;
    const intent = order.paymentIntentId!;
    // A partial refund first: recorded, no flag (the order still has money behind it).
    const partial = fake.refundInDashboard(intent, 500);
    const charge = (refunded: number) => ({
      id: 'ch_1',
      object: 'charge',
      payment_intent: intent,
      amount_refunded: refunded,
    });
    const chargeEvent = signedEvent(WEBHOOK_SECRET, 'charge.refunded', charge(500));
    const refundEvent = signedEvent(WEBHOOK_SECRET, 'refund.created', partial);
    for (const e of [chargeEvent, chargeEvent, refundEvent, refundEvent]) {
      expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
    }
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows).toMatchObject([
      { providerRefundId: partial.id, amountCents: 500, status: 'succeeded', actor: 'payment provider' },
    ]);
    expect((await orderOfSession(t, id))!.amountRefundedCents).toBe(500);
    expect((await state(id)).order.flags).toEqual([]);
    // The rest, in full before it shipped: a blocking "do not ship" flag and one staff mail, however often.
    const rest = fake.refundInDashboard(intent, order.totalCents - 500);
    const full = signedEvent(WEBHOOK_SECRET, 'charge.refunded', charge(order.totalCents));
    const restEvent = signedEvent(WEBHOOK_SECRET, 'refund.updated', rest);
    await Promise.all([full, full, restEvent].map((e) => deliver(e.payload, e.signature)));
    await deliver(restEvent.payload, restEvent.signature);
    expect((await orderOfSession(t, id))!).toMatchObject({
      amountRefundedCents: order.totalCents,
      status: 'paid',
    });
    expect((await state(id)).order.flags).toEqual(['refunded_in_provider']);
    expect(await staffMails(order.id)).toEqual([
      `Order #${order.id} needs review: Refunded in Stripe: do not ship`,
    ]);
    const [flag] = await t.database.db.select().from(orderFlags).where(eq(orderFlags.orderId, order.id));
    expect(flag!.blocking).toBe(true);
    // A refund that later fails is subtracted again, and flagged.
    const failed = signedEvent(WEBHOOK_SECRET, 'refund.failed', { ...rest, status: 'failed' });
    expect((await deliver(failed.payload, failed.signature)).statusCode).toBe(200);
    expect((await orderOfSession(t, id))!.amountRefundedCents).toBe(500);
    expect((await state(id)).order.flags.sort()).toEqual(['refund_failed', 'refunded_in_provider']);
  });

  it('flags a dispute once, blocking, with one staff mail however often it arrives', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const paid = sessionEvent('checkout.session.completed', id);
    await deliver(paid.payload, paid.signature);
    const order = (await orderOfSession(t, id))!;
    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      amount: order.totalCents,
      currency: 'usd',
      reason: 'fraudulent',
      charge: order.paymentChargeId,
      payment_intent: order.paymentIntentId,
    };
    const e = signedEvent(WEBHOOK_SECRET, 'charge.dispute.created', dispute);
    const again = signedEvent(WEBHOOK_SECRET, 'charge.dispute.created', dispute);
    await Promise.all([e, e, again].map((x) => deliver(x.payload, x.signature)));
    expect((await state(id)).order.flags).toEqual(['disputed']);
    expect(await staffMails(order.id)).toEqual([`Order #${order.id} needs review: Payment disputed`]);
  });

  it('acknowledges a validly signed event for a session Stripe does not know, once, without asking twice', async () => {
    const before = await countRows(t.database.db, orders);
    const e = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', { id: 'cs_test_someone_elses' });
    const first = await deliver(e.payload, e.signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ received: true, ignored: true });
    const asked = fake.requests.length;
    const again = await deliver(e.payload, e.signature);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true });
    // A redelivered event costs no call to Stripe.
    expect(fake.requests.length).toBe(asked);
    const [stored] = await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, e.id));
    expect(stored).toMatchObject({ outcome: 'ignored: unknown session', orderId: null });
    expect(await countRows(t.database.db, orders)).toBe(before);
  });

  it('answers 200 to an event type it does not handle, and changes nothing', async () => {
    const id = await newCheckout();
    const before = await state(id);
    const e = signedEvent(WEBHOOK_SECRET, 'customer.created', { id: 'cus_1', object: 'customer' });
    const res = await deliver(e.payload, e.signature);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, ignored: true });
    expect(await state(id)).toEqual(before);
  });
});

describe('without the webhook', () => {
  it('the reconcile job finds a paid session whose webhook was lost (41, promise 1)', async () => {
    const id = await newCheckout();
    fake.pay(id);
    const before = await state(id);
    const deps = t.app.payments;
    const log = { info() {}, warn() {}, error() {} } as never;
    // Too young: the job leaves it to the webhook.
    expect((await reconcilePendingOrders(deps, log)).checked).toBe(0);
    t.advance(11 * 60_000);
    try {
      const result = await reconcilePendingOrders(deps, log);
      expect(result.failed).toBe(0);
      expect(result.changed).toBeGreaterThanOrEqual(1);
      const after = await state(id);
      expect(after.order.status).toBe('paid');
      // (Earlier tests' orders whose sessions were paid are found too: each mails once.)
      expect(await confirmationsOf(id)).toBe(1);
      expect(after.mails).toBeGreaterThan(before.mails);
      // The webhook arriving after all changes nothing.
      const late = sessionEvent('checkout.session.completed', id);
      expect((await deliver(late.payload, late.signature)).statusCode).toBe(200);
      expect((await state(id)).mails).toBe(after.mails);
      expect(await confirmationsOf(id)).toBe(1);
    } finally {
      t.advance(-11 * 60_000);
    }
  });

  it('the success page of an unpaid session leaves the order pending (35)', async () => {
    const id = await newCheckout();
    const res = await t.app.inject({
      url: `/api/checkout/status?session_id=${id}`,
      headers: { cookie: customer.cookie },
    });
    expect(res.json()).toMatchObject({ status: 'pending' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, id));
    expect(order!.status).toBe('pending');
  });
});
