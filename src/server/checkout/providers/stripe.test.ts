import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows } from '../../auth/testing.ts';
import { orderItems, orders } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { PaymentProviderError, SessionNotFoundError } from '../payment-provider.ts';
import { type StripeFake, startStripeFake, withShipping } from '../testing/stripe-fake.ts';
import { cartItem, makeCustomer, startCheckout, uploadBox } from '../testing.ts';
import { STRIPE_API_VERSION, StripeProvider } from './stripe.ts';

// The Stripe adapter with the real stripe-node SDK, pointed at a local fake of the endpoints it calls.

let fake: StripeFake;
let provider: StripeProvider;
const SECRET_KEY = 'sk_test_fake_key_for_tests';
const WEBHOOK_SECRET = 'whsec_fake_for_tests';

beforeAll(async () => {
  fake = await startStripeFake();
  provider = new StripeProvider({
    secretKey: SECRET_KEY,
    publishableKey: undefined,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: fake.url,
    automaticTax: false,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.failWith = null;
  fake.requests.length = 0;
});

const newSession = () =>
  provider.createSession({
    orderId: 42,
    currency: 'usd',
    customer: { email: 'ada@example.com', providerCustomerId: null },
    description: 'Order #42 at Badger Print Co.',
    idempotencyKey: 'install1234:order:42',
    shipTo: null,
    shippingOptions: [],
    lines: [
      {
        name: 'cube.stl',
        description: 'Blue · Standard (3/5) · 1 × $12.00',
        imageUrl: 'https://shop.test/p.png?sig=x',
        amountCents: 1200,
      },
      {
        name: 'block.obj',
        description: 'Red · Solid (5/5) · 10 × $22.46 · 5% quantity discount',
        imageUrl: null,
        amountCents: 21337,
      },
    ],
    successUrl: 'https://shop.test/payment-success?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://shop.test/payment-cancel?order=42',
    expiresAt: new Date('2030-01-02T03:04:05Z'),
  });

describe('StripeProvider.createSession', () => {
  it("sends each line once at the server's line total, US/CA shipping, the URLs and an idempotency key", async () => {
    const sessionsBefore = fake.sessions.size;
    const session = await newSession();
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.id}`);
    expect(session.expiresAt).toEqual(new Date('2030-01-02T03:04:05Z'));
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    const f = req!.form;
    expect(Object.fromEntries(f)).toMatchObject({
      mode: 'payment',
      client_reference_id: '42',
      'metadata[orderId]': '42',
      customer_email: 'ada@example.com',
      // Cards only (documented): no order waits days on a bank debit that may still fail.
      'allowed_payment_method_types[0]': 'card',
      'payment_intent_data[description]': 'Order #42 at Badger Print Co.',
      'payment_intent_data[metadata][orderId]': '42',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1200',
      'line_items[0][price_data][product_data][name]': 'cube.stl',
      'line_items[0][price_data][product_data][images][0]': 'https://shop.test/p.png?sig=x',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][unit_amount]': '21337',
      'line_items[1][price_data][product_data][description]':
        'Red · Solid (5/5) · 10 × $22.46 · 5% quantity discount',
      'shipping_address_collection[allowed_countries][0]': 'US',
      'shipping_address_collection[allowed_countries][1]': 'CA',
      success_url: 'https://shop.test/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.test/payment-cancel?order=42',
      expires_at: String(Date.UTC(2030, 0, 2, 3, 4, 5) / 1000),
    });
    expect(f.has('line_items[1][price_data][product_data][images][0]')).toBe(false);
    // The session charges exactly the sum of the lines.
    expect(fake.sessions.get(session.id)!.amount_total).toBe(1200 + 21337);
    // The secret key travels only as the bearer token; one key per order and installation makes a retry safe.
    expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req!.headers['idempotency-key']).toBe('install1234:order:42');
    // The API version is pinned in code, whatever the account's default.
    expect(req!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    // Asked again with the same key (a retry after a restart): the same session, not a second one.
    const again = await newSession();
    expect(again.id).toBe(session.id);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
  });

  it('gives a PaymentProviderError when Stripe fails or cannot be reached', async () => {
    fake.failWith = 400;
    await expect(newSession()).rejects.toBeInstanceOf(PaymentProviderError);
    const away = new StripeProvider({
      secretKey: SECRET_KEY,
      publishableKey: undefined,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: 'http://127.0.0.1:9',
      automaticTax: false,
    });
    await expect(away.createSession(newSessionInput())).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

function newSessionInput() {
  return {
    orderId: 7,
    currency: 'usd',
    customer: { email: 'x@example.com', providerCustomerId: null },
    description: 'Order #7',
    idempotencyKey: `test:order:7:${Math.random()}`,
    shipTo: 'US' as const,
    shippingOptions: [],
    lines: [{ name: 'a.stl', description: '', imageUrl: null, amountCents: 1200 }],
    successUrl: 'https://shop.test/s',
    cancelUrl: 'https://shop.test/c',
    expiresAt: new Date(Date.now() + 3600_000),
  };
}

describe('StripeProvider shipping and tax', () => {
  const options = [
    { id: 'us-standard', name: 'US Standard', amountCents: 695, minDays: 4, maxDays: 6 },
    { id: 'us-expedited', name: 'US Expedited', amountCents: 1995, minDays: 2, maxDays: 3 },
  ];

  it("offers only the cart's country and its methods with their delivery estimates, the first preselected", async () => {
    const { id } = await provider.createSession({
      ...newSessionInput(),
      shipTo: 'CA',
      shippingOptions: options,
    });
    const f = Object.fromEntries(fake.requests.at(-1)!.form);
    expect(f).toMatchObject({
      'shipping_address_collection[allowed_countries][0]': 'CA',
      'shipping_options[0][shipping_rate_data][type]': 'fixed_amount',
      'shipping_options[0][shipping_rate_data][display_name]': 'US Standard',
      'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '695',
      'shipping_options[0][shipping_rate_data][fixed_amount][currency]': 'usd',
      'shipping_options[0][shipping_rate_data][tax_behavior]': 'exclusive',
      'shipping_options[0][shipping_rate_data][delivery_estimate][minimum][unit]': 'business_day',
      'shipping_options[0][shipping_rate_data][delivery_estimate][minimum][value]': '4',
      'shipping_options[0][shipping_rate_data][delivery_estimate][maximum][value]': '6',
      'shipping_options[0][shipping_rate_data][metadata][methodId]': 'us-standard',
      'shipping_options[1][shipping_rate_data][display_name]': 'US Expedited',
      'line_items[0][price_data][tax_behavior]': 'exclusive',
    });
    expect(f['shipping_address_collection[allowed_countries][1]']).toBeUndefined();
    // Without STRIPE_AUTOMATIC_TAX, no tax is asked for.
    expect(f['automatic_tax[enabled]']).toBeUndefined();
    expect(await provider.retrieveSession(id)).toMatchObject({
      amountTotalCents: 1200 + 695,
      amountSubtotalCents: 1200,
      shippingCents: 695,
      shippingMethodId: 'us-standard',
    });
  });

  it('reads the method chosen and the tax Stripe computed, line by line', async () => {
    const taxed = new StripeProvider({
      secretKey: SECRET_KEY,
      publishableKey: undefined,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.url,
      automaticTax: true,
    });
    const { id } = await taxed.createSession({ ...newSessionInput(), shippingOptions: options });
    expect(fake.requests.at(-1)!.form.get('automatic_tax[enabled]')).toBe('true');
    const session = fake.sessions.get(id)!;
    fake.pay(
      id,
      withShipping(session, 1, {
        amount: 176,
        breakdown: [
          {
            amount: 176,
            rate: {
              id: 'txr_1',
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
    expect(await taxed.retrieveSession(id)).toMatchObject({
      paymentStatus: 'paid',
      amountTotalCents: 1200 + 1995 + 176,
      amountSubtotalCents: 1200,
      shippingCents: 1995,
      shippingMethodId: 'us-expedited',
      taxCents: 176,
      taxLines: [{ amountCents: 176, label: 'Sales Tax 5.5 % (WI)' }],
    });
  });
});

describe('StripeProvider.retrieveSession', () => {
  it('reads status, payment, amount, currency, payment intent, order and the shipping address', async () => {
    const { id } = await newSession();
    expect(await provider.retrieveSession(id)).toEqual({
      id,
      status: 'open',
      paymentStatus: 'unpaid',
      amountTotalCents: 22537,
      amountSubtotalCents: 22537,
      shippingCents: 0,
      shippingMethodId: null,
      taxCents: 0,
      taxLines: [],
      currency: 'usd',
      paymentIntentId: null,
      paymentIntentStatus: null,
      chargeId: null,
      shipping: null,
      rawShipping: null,
      orderId: 42,
    });
    const paid = fake.pay(id, {
      collected_information: {
        shipping_details: {
          name: 'Jean Tremblay',
          address: {
            line1: '24 Sussex Dr',
            line2: null,
            city: 'Ottawa',
            state: 'ON',
            postal_code: 'K1M1M4',
            country: 'CA',
          },
        },
      },
    });
    expect(await provider.retrieveSession(id)).toMatchObject({
      status: 'complete',
      paymentStatus: 'paid',
      paymentIntentId: paid.payment_intent,
      shipping: {
        name: 'Jean Tremblay',
        line1: '24 Sussex Dr',
        line2: '',
        city: 'Ottawa',
        state: 'ON',
        postalCode: 'K1M 1M4',
        country: 'CA',
      },
    });
  });

  it('reads an unknown status as open and unpaid, and fails clearly for an unknown session', async () => {
    const { id } = await newSession();
    Object.assign(fake.sessions.get(id)!, { status: 'something_new', payment_status: 'something_else' });
    expect(await provider.retrieveSession(id)).toMatchObject({ status: 'open', paymentStatus: 'unpaid' });
    await expect(provider.retrieveSession('cs_test_nope')).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});

describe('the checkout with Stripe', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_SCALE: '100',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    });
  });
  afterAll(() => t.close());

  it("answers Stripe's hosted page with signed preview links", async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 30, 'part.stl');
    const res = await startCheckout(t, customer, [cartItem(model, { quantity: 10 })]);
    expect(res.statusCode).toBe(200);
    const { id, url } = res.json();
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${id}`);
    const form = fake.requests.at(-1)!.form;
    expect(form.get('line_items[0][price_data][product_data][images][0]')).toMatch(
      /^http:\/\/shop\.test\/api\/models\/m_[\w-]+\/preview\.png\?exp=\d+&sig=[\w-]+&color=blue$/,
    );
    expect(form.get('success_url')).toBe('http://shop.test/payment-success?session_id={CHECKOUT_SESSION_ID}');
  });

  it('answers 502 and keeps no order when Stripe is down', async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 31, 'down.stl');
    const before = {
      orders: await countRows(t.database.db, orders),
      items: await countRows(t.database.db, orderItems),
    };
    fake.failWith = 500;
    const res = await startCheckout(t, customer, [cartItem(model)]);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe(
      'The payment service is not available right now. Please try again in a few minutes.',
    );
    expect({
      orders: await countRows(t.database.db, orders),
      items: await countRows(t.database.db, orderItems),
    }).toEqual(before);
  });
});
