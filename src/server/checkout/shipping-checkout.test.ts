import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../auth/testing.ts';
import { orderFlags, orderItems, orders, simulatorSessions } from '../db/schema.ts';
import { saveShippingSettings } from '../shipping/settings-repository.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { signedEvent, withShipping } from './testing/stripe-fake.ts';
import {
  ADDRESS,
  CARD,
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

// Shipping and tax at checkout (issue #24, docs/domain.md "Shipping"): the cart's 'Ship to' decides the
// hosted page's country and methods, the order stores what was offered and what was paid in parts, and a
// payment whose parts are not what was offered is flagged, even when its total adds up.

const SHIP_TO_MSG = 'Ship to must be US (United States) or CA (Canada).';

describe('with the simulator', () => {
  let t: TestApp;
  let ann: Customer;
  let cube: string; // a 20 mm cube: $12.00, the minimum

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    ann = await makeCustomer(t);
    cube = await uploadBox(t, ann, 20, 'cube.stl');
  });
  afterAll(() => t.close());

  const counts = async () => ({
    orders: await countRows(t.database.db, orders),
    items: await countRows(t.database.db, orderItems),
    sessions: await countRows(t.database.db, simulatorSessions),
  });

  it('refuses a Ship to that is not US or CA with 400, writing nothing', async () => {
    const before = await counts();
    for (const shipTo of ['MX', 'us', 'United States', 5, {}, '']) {
      const res = await startCheckout(t, ann, [cartItem(cube)], shipTo);
      expect(res.statusCode, JSON.stringify(shipTo)).toBe(400);
      expect(res.json().error).toBe(SHIP_TO_MSG);
    }
    expect(await counts()).toEqual(before);
    const quote = await post(t, '/api/cart/quote', {
      items: [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }],
      shipTo: 'MX',
    });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().error).toBe(SHIP_TO_MSG);
  });

  it('ships to the US by default: the order stores the offers, and its total starts with US Standard', async () => {
    const res = await startCheckout(t, ann, [cartItem(cube, { quantity: 2 })]);
    expect(res.statusCode).toBe(200);
    const order = await orderOfSession(t, res.json().id);
    expect(order).toMatchObject({
      shipTo: 'US',
      subtotalCents: 2400,
      shippingCents: 695,
      shippingMethod: 'US Standard',
      taxCents: 0,
      totalCents: 2400 + 695,
    });
    expect(order!.shippingOffers!.map((o) => [o.id, o.priceCents])).toEqual([
      ['us-standard', 695],
      ['us-expedited', 1995],
    ]);
    const [session] = await t.database.db
      .select()
      .from(simulatorSessions)
      .where(eq(simulatorSessions.id, res.json().id));
    expect(session).toMatchObject({ shipTo: 'US', amountSubtotalCents: 2400, amountTotalCents: 3095 });
  });

  it("offers Canada's methods to a cart shipped to Canada, and free shipping from the threshold", async () => {
    const canada = await startCheckout(t, ann, [cartItem(cube, { quantity: 3 })], 'CA');
    const order = await orderOfSession(t, canada.json().id);
    expect(order!.shippingOffers!.map((o) => [o.id, o.priceCents])).toEqual([
      ['ca-standard', 1495],
      ['ca-expedited', 3495],
    ]);
    expect(order!.totalCents).toBe(3600 + 1495);
    // $84.00 of items: US Standard is free from $75, Expedited never is.
    const big = await startCheckout(t, ann, [cartItem(cube, { quantity: 7 })]);
    const free = await orderOfSession(t, big.json().id);
    expect(free!.shippingOffers!.map((o) => [o.id, o.priceCents, o.listPriceCents])).toEqual([
      ['us-standard', 0, 695],
      ['us-expedited', 1995, 1995],
    ]);
    expect(free).toMatchObject({ subtotalCents: 8400, shippingCents: 0, totalCents: 8400 });
  });

  it('the same cart shipped elsewhere is another checkout, not the open one', async () => {
    const items = [cartItem(cube, { quantity: 4 })];
    const us = await startCheckout(t, ann, items, 'US');
    const again = await startCheckout(t, ann, items, 'US');
    expect(again.json().id).toBe(us.json().id);
    const ca = await startCheckout(t, ann, items, 'CA');
    expect(ca.json().id).not.toBe(us.json().id);
    expect((await orderOfSession(t, us.json().id))!.status).toBe('cancelled');
  });

  it('the cart quote offers the methods with their dates, remembers the last country, and says how taxes go', async () => {
    const items = [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }];
    const res = await post(t, '/api/cart/quote', { items }, ann.cookie);
    expect(res.statusCode).toBe(200);
    const quote = res.json();
    expect(quote.tax).toBe('test');
    expect(quote.shipping.shipTo).toBe('US');
    const [standard, expedited] = quote.shipping.options;
    expect(standard).toMatchObject({
      id: 'us-standard',
      name: 'US Standard',
      priceCents: 695,
      freeFromCents: 7500,
    });
    expect(standard.shipBy).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(standard.arrivesFrom > standard.shipBy).toBe(true);
    expect(expedited.arrivesBy < standard.arrivesBy).toBe(true);
    // A line that cannot be ordered alone: no shipping to offer.
    const none = await post(t, '/api/cart/quote', { items: [{ ...items[0], modelId: 'm_gone' }] });
    expect(none.json()).toMatchObject({ shipping: null, total: 0 });

    // Ann pays an order to Canada: her next cart ships to Canada unless she says otherwise.
    const paid = await startCheckout(t, ann, [cartItem(cube, { quantity: 5 })], 'CA');
    const pay = await paySimulator(
      t,
      paid.json().id,
      CARD,
      { ...ADDRESS, country: 'CA', state: 'ON', city: 'Ottawa', postalCode: 'K1M 1M4' },
      'ca-expedited',
    );
    expect(pay.statusCode).toBe(200);
    const after = await post(t, '/api/cart/quote', { items }, ann.cookie);
    expect(after.json().shipping.shipTo).toBe('CA');
    expect(after.json().shipping.options[0].id).toBe('ca-standard');
    const chosen = await post(t, '/api/cart/quote', { items, shipTo: 'US' }, ann.cookie);
    expect(chosen.json().shipping.shipTo).toBe('US');
    // A visitor's cart ships to the US (a visitor's own model: ann's are hers alone).
    const visitor = await post(t, '/api/cart/quote', { items });
    expect(visitor.json()).toMatchObject({ shipping: null, lines: [{ error: expect.any(String) }] });
  });

  it('a busy print queue moves the ship-by date later', async () => {
    const items = [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }];
    const before = (await post(t, '/api/cart/quote', { items, shipTo: 'US' }, ann.cookie)).json().shipping
      .options[0];
    // 4,000 printer-hours ahead of it (4 printers x 20 h a day: 50 working days).
    const [order] = await t.database.db
      .insert(orders)
      .values({ userId: ann.id, status: 'queued', totalCents: 1200, subtotalCents: 1200 })
      .returning();
    await t.database.db.insert(orderItems).values({
      orderId: order!.id,
      fileName: 'big.stl',
      color: '#007bff',
      strength: 5,
      quantity: 50,
      unitPriceCents: 24,
      lineTotalCents: 1200,
      printHours: 80,
    });
    const after = (await post(t, '/api/cart/quote', { items, shipTo: 'US' }, ann.cookie)).json().shipping
      .options[0];
    expect(after.shipBy > before.shipBy).toBe(true);
    const days = (Date.parse(after.shipBy) - Date.parse(before.shipBy)) / 86_400_000;
    // 50 working days are 10 weeks at least.
    expect(days).toBeGreaterThanOrEqual(68);
    await t.database.db.delete(orders).where(eq(orders.id, order!.id));
  });

  it('GET /api/shop says test mode, no tax, and the methods in force; a new price shows at once', async () => {
    const res = await t.app.inject('/api/shop');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ testMode: true, tax: 'test' });
    expect(res.json().shipping.US.map((m: { id: string }) => m.id)).toEqual(['us-standard', 'us-expedited']);
    const placed = await startCheckout(t, ann, [cartItem(cube, { quantity: 6 })]);
    const offersBefore = (await orderOfSession(t, placed.json().id))!.shippingOffers;
    const us = res.json().shipping.US;
    await saveShippingSettings(
      t.database.db,
      { ...res.json().shipping, US: [{ ...us[0], priceCents: 795 }, us[1]] },
      { userId: null, now: new Date() },
    );
    try {
      expect((await t.app.inject('/api/shop')).json().shipping.US[0].priceCents).toBe(795);
      const quote = await post(
        t,
        '/api/cart/quote',
        { items: [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }], shipTo: 'US' },
        ann.cookie,
      );
      expect(quote.json().shipping.options[0].priceCents).toBe(795);
      // A placed order keeps what it was offered.
      expect((await orderOfSession(t, placed.json().id))!.shippingOffers).toEqual(offersBefore);
    } finally {
      await saveShippingSettings(t.database.db, res.json().shipping, { userId: null, now: new Date() });
    }
  });

  it('refuses shipping settings that make no sense, keeping the old ones', async () => {
    const bad = [
      { US: [], CA: [] },
      { US: [{ id: 'x', name: 'X', priceCents: -1, transitDays: { min: 1, max: 2 }, freeFromCents: null }] },
      {
        US: [{ id: 'x', name: 'X', priceCents: 100, transitDays: { min: 5, max: 2 }, freeFromCents: null }],
        CA: [{ id: 'y', name: 'Y', priceCents: 100, transitDays: { min: 1, max: 2 }, freeFromCents: null }],
      },
    ];
    for (const value of bad) {
      await expect(
        saveShippingSettings(t.database.db, value, { userId: null, now: new Date() }),
      ).rejects.toThrow();
    }
    expect((await t.app.inject('/api/shop')).json().shipping.US[0].priceCents).toBe(695);
  });
});

describe('with Stripe and automatic tax', () => {
  let shop: StripeShop;
  let bo: Customer;
  let cube: string;
  beforeAll(async () => {
    shop = await startStripeShop({ STRIPE_AUTOMATIC_TAX: 'true' });
    bo = await makeCustomer(shop.t);
    cube = await uploadBox(shop.t, bo, 20, 'cube.stl');
  });
  afterAll(() => shop.close());

  let quantity = 0;
  async function checkout(shipTo: 'US' | 'CA' = 'US') {
    quantity++;
    const res = await startCheckout(shop.t, bo, [cartItem(cube, { quantity })], shipTo);
    expect(res.statusCode).toBe(200);
    return res.json().id as string;
  }
  const completed = (id: string) =>
    shop.deliver(signedEvent(shop.webhookSecret, 'checkout.session.completed', shop.fake.sessions.get(id)));

  it("asks Stripe for automatic tax, the cart's country only and its methods with delivery estimates", async () => {
    const id = await checkout('CA');
    const form = shop.fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.form;
    expect(form.get('automatic_tax[enabled]')).toBe('true');
    expect(form.getAll('shipping_address_collection[allowed_countries][0]')).toEqual(['CA']);
    expect(form.get('shipping_address_collection[allowed_countries][1]')).toBeNull();
    expect(form.get('shipping_options[0][shipping_rate_data][display_name]')).toBe('Canada Standard');
    expect(form.get('shipping_options[1][shipping_rate_data][metadata][methodId]')).toBe('ca-expedited');
    const min = Number(
      form.get('shipping_options[0][shipping_rate_data][delivery_estimate][minimum][value]'),
    );
    const max = Number(
      form.get('shipping_options[0][shipping_rate_data][delivery_estimate][maximum][value]'),
    );
    // Printing first (at least a day), then Canada Standard's 5-8 transit days.
    expect(min).toBeGreaterThanOrEqual(6);
    // Mon-Fri days, as Stripe counts: a holiday in the window adds one.
    expect(max - min).toBeGreaterThanOrEqual(3);
    expect((await shop.t.app.inject('/api/shop')).json()).toMatchObject({
      testMode: false,
      tax: 'automatic',
    });
    expect(id).toMatch(/^cs_test_/);
  });

  it('stores the method chosen, the tax Stripe computed and its lines; My Orders shows them', async () => {
    const id = await checkout();
    const session = shop.fake.sessions.get(id)!;
    shop.fake.pay(
      id,
      withShipping(session, 1, {
        amount: 176,
        breakdown: [
          {
            amount: 176,
            rate: {
              id: 'txr_wi',
              object: 'tax_rate',
              display_name: 'Sales Tax',
              percentage: 5.5,
              state: 'WI',
            },
            taxability_reason: 'standard_rated',
            taxable_amount: 3195,
          },
        ],
      }),
    );
    expect((await completed(id)).statusCode).toBe(200);
    const order = await orderOfSession(shop.t, id);
    expect(order).toMatchObject({
      status: 'paid',
      shippingMethod: 'US Expedited',
      shippingCents: 1995,
      taxCents: 176,
      taxLines: [{ amountCents: 176, label: 'Sales Tax 5.5 % (WI)' }],
      totalCents: order!.subtotalCents + 1995 + 176,
      amountPaidCents: order!.subtotalCents + 1995 + 176,
    });
    const mine = (
      await shop.t.app.inject({ url: '/api/get_orders.php', headers: { cookie: bo.cookie } })
    ).json();
    expect(mine.find((o: { id: number }) => o.id === order!.id)).toMatchObject({
      shipping_method: 'US Expedited',
      shipping_amount: 19.95,
      tax_amount: 1.76,
      tax_lines: [{ label: 'Sales Tax 5.5 % (WI)', amount: 1.76 }],
      total_amount: (order!.subtotalCents + 1995 + 176) / 100,
    });
  });

  it('flags a payment whose shipping is not a method at its offered price, though its total adds up', async () => {
    const id = await checkout();
    const session = shop.fake.sessions.get(id)!;
    // Expedited chosen, but charged at Standard's price (a rate changed by hand in the dashboard).
    const parts = withShipping(session, 1);
    const subtotal = session.amount_subtotal as number;
    shop.fake.pay(id, {
      ...parts,
      amount_total: subtotal + 695,
      shipping_cost: { ...(parts.shipping_cost as object), amount_subtotal: 695, amount_total: 695 },
      total_details: { amount_discount: 0, amount_shipping: 695, amount_tax: 0 },
    });
    expect((await completed(id)).statusCode).toBe(200);
    const order = await orderOfSession(shop.t, id);
    expect(order!.status).toBe('pending');
    const flags = await shop.t.database.db.select().from(orderFlags).where(eq(orderFlags.orderId, order!.id));
    expect(flags.map((f) => f.kind)).toEqual(['amount_mismatch']);
    expect(flags[0]!.details).toContain('US Expedited offered at 1995');
  });
});
