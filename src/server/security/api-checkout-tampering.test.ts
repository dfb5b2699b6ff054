import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cartItem,
  makeCustomer,
  post,
  type StripeShop,
  startStripeShop,
  uploadBox,
} from '../checkout/testing.ts';
import { orders } from '../db/schema.ts';
import { snapshotEverything } from './api-snapshot.ts';

// docs/security.md 33 and promise 3 against Stripe (the local fake behind the real stripe-node): a checkout
// body that names its own currency, unit price, total, shipping or tax, at the top or on a line, is charged
// the server's amounts in usd all the same; an impossible quantity is a 400 with no order and no session.

let shop: StripeShop;
beforeAll(async () => {
  shop = await startStripeShop();
});
afterAll(() => shop.close());

const FORGED = {
  currency: 'eur',
  unitPrice: 0.01,
  unit_amount: 1,
  total: 0.01,
  totalCents: 1,
  amount_total: 1,
  lineTotal: 0.01,
  shippingCents: 0,
  taxCents: 0,
  price: 0.01,
  isAdmin: true,
};

describe('checkout tampering (docs/security.md 33, promise 3)', () => {
  it("charges the server's amounts in usd whatever currency, price, total, shipping or tax the body names", async () => {
    const { t, fake } = shop;
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 20, 'tamper.stl');
    const quote = (await post(t, '/api/quote', { modelId: model, quantity: 3 }, customer.cookie)).json();
    const requestsBefore = fake.requests.length;
    const body = JSON.stringify({
      cartItems: [{ ...cartItem(model, { quantity: 3, cost: 0.01 }), ...FORGED }],
      shipTo: 'US',
      ...FORGED,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/create-checkout-session.php',
      headers: { 'content-type': 'application/json', origin: 'http://shop.test', cookie: customer.cookie },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = fake.requests.slice(requestsBefore).find((r) => r.path === '/v1/checkout/sessions')!;
    const form = Object.fromEntries(sent.form);
    // Every amount Stripe was given is in usd, and the line is the server's line total.
    const currencies = Object.entries(form).filter(([k]) => k.endsWith('[currency]'));
    expect(currencies.length).toBeGreaterThan(0);
    for (const [k, v] of currencies) expect(v, k).toBe('usd');
    expect(form['line_items[0][price_data][unit_amount]']).toBe(String(Math.round(quote.lineTotal * 100)));
    expect(form['line_items[0][quantity]']).toBe('1');
    expect(form['line_items[1][quantity]']).toBeUndefined();
    // Shipping is one of the shop's methods at the shop's price, never the body's 0.
    const shippingAmounts = Object.entries(form)
      .filter(([k]) => /^shipping_options\[\d+\]\[shipping_rate_data\]\[fixed_amount\]\[amount\]$/.test(k))
      .map(([, v]) => Number(v));
    expect(shippingAmounts.length).toBeGreaterThan(0);
    expect(shippingAmounts.every((a) => a > 0)).toBe(true);
    const session = fake.sessions.get(res.json().id)!;
    expect(session.currency).toBe('usd');
    // The line at the server's price plus the preselected (first) method's price.
    expect(session.amount_total).toBe(Math.round(quote.lineTotal * 100) + shippingAmounts[0]!);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, session.id));
    expect(order).toMatchObject({ currency: 'usd', subtotalCents: Math.round(quote.lineTotal * 100) });
  });

  it('refuses a quantity of 0, -1, 1.5, 1e9 or a string with 400, creating no order and no session', async () => {
    const { t, fake } = shop;
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 21, 'qty.stl');
    const before = await snapshotEverything(t);
    const requestsBefore = fake.requests.length;
    for (const quantity of [0, -1, 1.5, 1e9, '2', null]) {
      const res = await post(
        t,
        '/api/create-checkout-session.php',
        { cartItems: [cartItem(model, { quantity })] },
        customer.cookie,
      );
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().error, String(quantity)).toEqual(expect.any(String));
    }
    expect(fake.requests.length).toBe(requestsBefore);
    expect(await snapshotEverything(t)).toEqual(before);
  });
});
