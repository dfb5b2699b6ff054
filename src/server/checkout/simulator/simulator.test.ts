import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, drainedMails } from '../../auth/testing.ts';
import { orderEvents, orders, outbox, paymentEvents, simulatorSessions } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { reconcilePendingOrders } from '../reconcile.ts';
import {
  ADDRESS,
  CARD,
  type Customer,
  cartItem,
  DECLINED_CARD,
  makeCustomer,
  orderOfSession,
  paySimulator,
  startCheckout,
  uploadBox,
} from '../testing.ts';

// The embedded default's hosted checkout: the page's data, Pay with Stripe's test cards, a US/CA address
// checked as a real checkout would, expiry after 24 hours, and the same fulfilment as Stripe's events.

let t: TestApp;
let ann: Customer;
let model: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  ann = await makeCustomer(t);
  model = await uploadBox(t, ann, 30, 'part.stl');
});
afterAll(() => t.close());

let lines = 0;
/** A fresh checkout of ann's model (a different quantity each time, so no session is reused). */
async function newSession(shipTo?: 'US' | 'CA'): Promise<string> {
  lines++;
  const res = await startCheckout(t, ann, [cartItem(model, { quantity: lines, color: 'green' })], shipTo);
  expect(res.statusCode).toBe(200);
  return res.json().id;
}

const silentLog = { info() {}, warn() {}, error() {} } as never;

async function snapshot(sessionId: string) {
  const db = t.database.db;
  const [session] = await db.select().from(simulatorSessions).where(eq(simulatorSessions.id, sessionId));
  const order = await orderOfSession(t, sessionId);
  return {
    order: { status: order?.status, amountPaid: order?.amountPaidCents, shippingName: order?.shippingName },
    session: { status: session?.status, paymentStatus: session?.paymentStatus },
    /** Status changes (mails and flags are counted apart). */
    events: (await db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.kind, 'status')))
      .length,
    paymentEvents: await countRows(db, paymentEvents),
    mails: await countRows(db, outbox),
  };
}

describe('GET /api/pay/simulator/:id', () => {
  it("shows the shop's name, the lines with signed preview links and the total", async () => {
    const id = await newSession();
    const res = await t.app.inject(`/api/pay/simulator/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id,
      shopName: 'Badger Print Co.',
      status: 'open',
      currency: 'usd',
      // The items and the preselected method, US Standard: what the page shows first.
      subtotal: 12,
      total: 18.95,
      shipTo: 'US',
      cancelUrl: expect.stringMatching(/^http:\/\/shop\.test\/payment-cancel\?order=\d+$/),
      successUrl: `http://shop.test/payment-success?session_id=${id}`,
    });
    expect(body.shippingOptions).toEqual([
      {
        id: 'us-standard',
        name: 'US Standard',
        amount: 6.95,
        minDays: expect.any(Number),
        maxDays: expect.any(Number),
      },
      {
        id: 'us-expedited',
        name: 'US Expedited',
        amount: 19.95,
        minDays: expect.any(Number),
        maxDays: expect.any(Number),
      },
    ]);
    // Business days to arrival: printing (at least a day) and then the carrier's 3-5 or 1-2 days.
    const [standard, expedited] = body.shippingOptions;
    expect(standard.minDays).toBeGreaterThanOrEqual(4);
    expect(standard.maxDays - standard.minDays).toBeGreaterThanOrEqual(2);
    expect(expedited.maxDays).toBeLessThan(standard.maxDays);
    expect(body.lines).toEqual([
      {
        name: 'part.stl',
        description: 'Green · Standard (3/5) · 1 × $12.00',
        imageUrl: expect.any(String),
        amount: 12,
      },
    ]);
    // The signed link opens the preview without a cookie; the bare address does not.
    const image = new URL(body.lines[0].imageUrl);
    expect((await t.app.inject(image.pathname + image.search)).statusCode).toBe(200);
    expect((await t.app.inject(image.pathname)).statusCode).toBe(404);
    expect(
      (await t.app.inject(`${image.pathname}?exp=${image.searchParams.get('exp')}&sig=AAAA`)).statusCode,
    ).toBe(404);
  });

  it('answers 404 to an unknown or malformed session id', async () => {
    expect(
      (await t.app.inject('/api/pay/simulator/cs_sim_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode,
    ).toBe(404);
    expect((await t.app.inject('/api/pay/simulator/..%2F..%2Fetc')).statusCode).toBe(404);
  });
});

describe('Pay', () => {
  it('pays with 4242 4242 4242 4242: the order is paid once, with the address, one event and one mail', async () => {
    const id = await newSession();
    const before = await snapshot(id);
    const res = await paySimulator(t, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirectUrl: `http://shop.test/payment-success?session_id=${id}` });
    const after = await snapshot(id);
    const total = (await orderOfSession(t, id))!.totalCents;
    expect(after.order).toEqual({ status: 'paid', amountPaid: total, shippingName: 'Ada Lovelace' });
    expect(after.events).toBe(before.events + 1);
    expect(after.mails).toBe(before.mails + 1);
    const order = await orderOfSession(t, id);
    expect(order).toMatchObject({
      shippingLine1: '1 Main St',
      shippingLine2: 'Apt 2',
      shippingCity: 'Madison',
      shippingState: 'WI',
      shippingPostalCode: '53703',
      shippingCountry: 'US',
      paymentProvider: 'simulator',
      paymentUrl: null,
    });
    expect(order!.paymentIntentId).toMatch(/^pi_sim_/);
    expect(order!.shipBy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Paying again is refused and changes nothing.
    const again = await paySimulator(t, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This checkout has already been paid.');
    expect(await snapshot(id)).toEqual(after);
  });

  it('sends the confirmation mail: number, lines, total, address, ship-by date and My Orders', async () => {
    const id = await newSession();
    await paySimulator(t, id, CARD, { ...ADDRESS, name: 'Grace <b>Hopper</b>' });
    const order = await orderOfSession(t, id);
    const mail = (await drainedMails(t)).find((m) => m.headers.subject?.includes(`Order #${order!.id} `));
    expect(mail).toBeDefined();
    expect(mail!.headers.to).toContain('@example.com');
    expect(mail!.text).toContain('part.stl');
    expect(mail!.text).toContain('Green · Standard (3/5)');
    // A simulator order says, in the subject and the body, that no money was taken.
    expect(mail!.headers.subject).toMatch(/^\[TEST ORDER\] Order #\d+ confirmed: \$\d+\.\d\d USD$/);
    expect(mail!.text).toContain('Test order: no money was taken.');
    expect(mail!.text).not.toContain('We received your payment');
    expect(mail!.text).toMatch(/Total \(test order, not charged\): \$\d+\.\d\d USD/);
    expect(mail!.text).toContain('Madison, WI 53703');
    expect(mail!.text).toMatch(/Ships by [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}/);
    expect(mail!.text).toMatch(/Shipping \(US Standard\): \$6\.95/);
    expect(mail!.text).toMatch(/Expected to arrive [A-Z][a-z]{2} \d{1,2}/);
    expect(mail!.text).toContain('http://shop.test/orders');
    expect(mail!.html).toContain('Grace &lt;b&gt;Hopper&lt;/b&gt;');
    expect(mail!.html).toMatch(
      /<img src="http:\/\/shop\.test\/api\/models\/m_[\w-]+\/preview\.png\?exp=\d+&amp;sig=/,
    );
  });

  it('declines 4000 0000 0000 0002 with a clear message, keeps the order pending, then pays', async () => {
    const id = await newSession();
    const before = await snapshot(id);
    const declined = await paySimulator(t, id, DECLINED_CARD);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({
      error: 'Your card was declined. Try another card.',
      field: 'card.number',
    });
    expect(await snapshot(id)).toEqual(before);
    const paid = await paySimulator(t, id);
    expect(paid.statusCode).toBe(200);
    expect((await orderOfSession(t, id))!.status).toBe('paid');
  });

  it('refuses a bad card or address with 400 naming the field, and changes nothing', async () => {
    const id = await newSession();
    const before = await snapshot(id);
    const cases: [Record<string, string>, Record<string, string>, string, string][] = [
      [{ ...CARD, number: '4242 4242 4242 4241' }, ADDRESS, 'card.number', 'Your card number is invalid.'],
      [
        { ...CARD, number: 'abc' },
        ADDRESS,
        'card.number',
        'Enter a card number: in test mode, 4242 4242 4242 4242.',
      ],
      [{ ...CARD, expiry: '01 / 20' }, ADDRESS, 'card.expiry', 'Enter the expiry as MM / YY, in the future.'],
      [{ ...CARD, expiry: '13 / 30' }, ADDRESS, 'card.expiry', 'Enter the expiry as MM / YY, in the future.'],
      [{ ...CARD, cvc: '12' }, ADDRESS, 'card.cvc', 'Enter the 3 or 4 digit security code.'],
      [
        CARD,
        { ...ADDRESS, postalCode: '5370' },
        'shipping.postalCode',
        'Enter a ZIP code such as 53703 or 53703-1234.',
      ],
      [CARD, { ...ADDRESS, state: 'ON' }, 'shipping.state', 'Choose a state.'],
      [
        CARD,
        { ...ADDRESS, country: 'CA', state: 'WI', postalCode: 'K1A 0B1' },
        'shipping.state',
        'Choose a province or territory.',
      ],
      [
        CARD,
        { ...ADDRESS, country: 'CA', state: 'ON', postalCode: '53703' },
        'shipping.postalCode',
        'Enter a postal code such as K1A 0B1.',
      ],
      [
        CARD,
        { ...ADDRESS, country: 'MX' },
        'shipping.country',
        'We ship to the United States and Canada only.',
      ],
      [CARD, { ...ADDRESS, name: ' ' }, 'shipping.name', 'Enter the name of the person we ship to.'],
      [CARD, { ...ADDRESS, city: '' }, 'shipping.city', 'Enter the city.'],
    ];
    for (const [card, shipping, field, error] of cases) {
      const res = await paySimulator(t, id, card, shipping);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toEqual({ error, field });
    }
    expect(await snapshot(id)).toEqual(before);
  });

  it("finds the order by the session's own reference when the shop failed to record the session id", async () => {
    const id = await newSession();
    const order = await orderOfSession(t, id);
    await t.database.db.update(orders).set({ paymentSessionId: null }).where(eq(orders.id, order!.id));
    expect((await paySimulator(t, id)).statusCode).toBe(200);
    expect(await orderOfSession(t, id)).toMatchObject({ id: order!.id, status: 'paid' });
  });

  it("takes only the cart's country, and only a shipping method offered", async () => {
    const id = await newSession();
    const before = await snapshot(id);
    const canada = await paySimulator(t, id, CARD, {
      ...ADDRESS,
      country: 'CA',
      state: 'ON',
      postalCode: 'K1A 0B1',
    });
    expect(canada.statusCode).toBe(400);
    expect(canada.json()).toEqual({
      error: 'This checkout ships to United States only. Go back to the cart to change where it ships.',
      field: 'shipping.country',
    });
    for (const option of ['ca-standard', 'free', '']) {
      const res = await paySimulator(t, id, CARD, ADDRESS, option);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'Choose one of the shipping methods offered.',
        field: 'shippingOption',
      });
    }
    expect(await snapshot(id)).toEqual(before);
  });

  it('charges the method chosen, and the order keeps it, its price, its dates and no tax', async () => {
    const id = await newSession();
    const res = await paySimulator(t, id, CARD, ADDRESS, 'us-expedited');
    expect(res.statusCode).toBe(200);
    const order = await orderOfSession(t, id);
    expect(order).toMatchObject({
      status: 'paid',
      shippingMethod: 'US Expedited',
      shippingCents: 1995,
      shippingRate: {
        id: 'us-expedited',
        name: 'US Expedited',
        priceCents: 1995,
        transitDays: { min: 1, max: 2 },
      },
      taxCents: 0,
      totalCents: order!.subtotalCents + 1995,
      amountPaidCents: order!.subtotalCents + 1995,
    });
    expect(order!.shipBy).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(order!.arrivesFrom! > order!.shipBy!).toBe(true);
    expect(order!.arrivesBy! >= order!.arrivesFrom!).toBe(true);
  });

  it('takes a Canadian address and stores its postal code printed', async () => {
    const id = await newSession('CA');
    const res = await paySimulator(t, id, CARD, {
      ...ADDRESS,
      country: 'CA',
      state: 'on',
      postalCode: 'k1a0b1',
      city: 'Ottawa',
    });
    expect(res.statusCode).toBe(200);
    expect(await orderOfSession(t, id)).toMatchObject({
      shippingCountry: 'CA',
      shippingState: 'ON',
      shippingPostalCode: 'K1A 0B1',
    });
  });

  it('pays once when Pay is clicked twice at the same time', async () => {
    const id = await newSession();
    const before = await snapshot(id);
    const answers = await Promise.all([paySimulator(t, id), paySimulator(t, id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const after = await snapshot(id);
    expect(after.events).toBe(before.events + 1);
    expect(after.mails).toBe(before.mails + 1);
  });
});

describe('expiry and reconcile', () => {
  it('an unpaid session expires after 24 hours: Pay is refused and the reconcile job cancels the order', async () => {
    const id = await newSession();
    t.advance(24 * 3600_000 + 1000);
    try {
      const res = await paySimulator(t, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('This checkout has expired. Go back to the shop and check out again.');
      expect((await t.app.inject(`/api/pay/simulator/${id}`)).json().status).toBe('expired');
      const deps = t.app.payments;
      const result = await reconcilePendingOrders(deps, silentLog);
      expect(result.failed).toBe(0);
      expect((await orderOfSession(t, id))!.status).toBe('cancelled');
      // Asked again later: it stays cancelled.
      t.advance(3600_000);
      await reconcilePendingOrders(deps, silentLog);
      expect((await orderOfSession(t, id))!.status).toBe('cancelled');
    } finally {
      t.advance(-(24 * 3600_000 + 1000 + 3600_000));
    }
  });
});

describe('GET /api/checkout/status', () => {
  it("answers the caller's order state; an unpaid session stays pending", async () => {
    const id = await newSession();
    const status = (cookie: string) =>
      t.app.inject({ url: `/api/checkout/status?session_id=${id}`, headers: { cookie } });
    const pending = await status(ann.cookie);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      orderId: expect.any(Number),
      status: 'pending',
      testMode: true,
      items: [
        {
          modelId: expect.stringMatching(/^m_/),
          color: expect.any(String),
          strength: 3,
          quantity: expect.any(Number),
        },
      ],
    });
    expect((await orderOfSession(t, id))!.status).toBe('pending');
    const stranger = await makeCustomer(t);
    expect((await status(stranger.cookie)).statusCode).toBe(404);
    expect((await t.app.inject(`/api/checkout/status?session_id=${id}`)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/checkout/status?session_id=<x>', headers: { cookie: ann.cookie } }))
        .statusCode,
    ).toBe(400);
  });

  it('finishes a payment whose fulfilment was deferred (the success page does not wait for a webhook)', async () => {
    const id = await newSession();
    // Paid at the provider, but nothing told the shop yet.
    await t.database.db
      .update(simulatorSessions)
      .set({
        status: 'complete',
        paymentStatus: 'paid',
        shipping: { ...ADDRESS },
        paymentIntentId: 'pi_sim_x',
      })
      .where(eq(simulatorSessions.id, id));
    const before = await snapshot(id);
    // The success page, a second tab and the reconcile job ask at once: one transition, one mail.
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({ url: `/api/checkout/status?session_id=${id}`, headers: { cookie: ann.cookie } }),
      ),
    );
    expect(answers.map((r) => r.json().status)).toEqual(['paid', 'paid', 'paid']);
    const after = await snapshot(id);
    expect(after.events).toBe(before.events + 1);
    expect(after.mails).toBe(before.mails + 1);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, id));
    expect(order!.amountPaidCents).toBe(order!.totalCents);
  });
});
