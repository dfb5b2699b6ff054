import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box, inverted, merged } from '../../mesh/testing/generate.ts';
import { ADDRESS_MSG } from '../../shared/address.ts';
import { countRows, drainedMails } from '../auth/testing.ts';
import { orderEvents, orderFlags, orders, outbox, simulatorSessions } from '../db/schema.ts';
import { meshStl, uploadRequest } from '../models/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { signedEvent } from './testing/stripe-fake.ts';
import {
  ADDRESS,
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

// The small edges of issue #23 (§4 addresses, §7): a paid order is kept whatever address the hosted page
// took, names and addresses cannot carry line breaks or direction marks, the cart's prices are rate-limited,
// a paid order's lines leave the account's saved cart and only those, and a test order says it is one.

async function openFlags(t: TestApp, orderId: number) {
  const rows = await t.database.db
    .select({ kind: orderFlags.kind, blocking: orderFlags.blocking, details: orderFlags.details })
    .from(orderFlags)
    .where(and(eq(orderFlags.orderId, orderId), isNull(orderFlags.resolvedAt)));
  return rows;
}

describe('an address the shop’s rules refuse, on a paid session', () => {
  let shop: StripeShop;
  let t: TestApp;
  let customer: Customer;
  let model: string;
  beforeAll(async () => {
    shop = await startStripeShop();
    t = shop.t;
    customer = await makeCustomer(t);
    model = await uploadBox(t, customer, 30, 'apo.stl');
  });
  afterAll(() => shop.close());

  it('still becomes a paid order: the raw address kept, the order flagged "check the address", the mail sent', async () => {
    for (const [n, shipping] of [
      [
        1,
        {
          name: 'Sgt. Ada Lovelace',
          address: {
            line1: 'Unit 2050 Box 4190',
            line2: null,
            city: 'APO',
            state: 'AE',
            postal_code: '09096',
            country: 'US',
          },
        },
      ],
      [
        2,
        {
          name: 'A'.repeat(101),
          address: {
            line1: '1 Main St',
            line2: null,
            city: 'Madison',
            state: 'WI',
            postal_code: '53703',
            country: 'US',
          },
        },
      ],
    ] as const) {
      const id = (await startCheckout(t, customer, [cartItem(model, { quantity: n })])).json().id as string;
      shop.fake.pay(id, { collected_information: { shipping_details: shipping } });
      const e = signedEvent(shop.webhookSecret, 'checkout.session.completed', shop.fake.sessions.get(id));
      const res = await shop.deliver(e);
      expect(res.statusCode).toBe(200);
      const order = (await orderOfSession(t, id))!;
      expect(order.status).toBe('paid');
      expect(order.shippingName).toBe(shipping.name);
      expect(order.shippingState).toBe(shipping.address.state);
      const flags = await openFlags(t, order.id);
      expect(flags).toMatchObject([{ kind: 'address_unreadable', blocking: true }]);
      const mails = await drainedMails(t);
      const confirmation = mails.find(
        (m) =>
          m.headers.subject ===
          `Order #${order.id} confirmed: ${'$'}${(order.totalCents / 100).toFixed(2)} USD`,
      );
      expect(confirmation?.text).toContain(shipping.address.line1);
      expect(
        mails.some((m) => m.headers.subject === `Order #${order.id} needs review: Check the address`),
      ).toBe(true);
    }
  });
});

describe('with the simulator', () => {
  let t: TestApp;
  let customer: Customer;
  let model: string;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    customer = await makeCustomer(t);
    model = await uploadBox(t, customer, 30, 'edges.stl');
  });
  afterAll(() => t.close());

  it('offers the regions Stripe Checkout offers: an APO address pays, and is flagged for staff', async () => {
    const id = (await startCheckout(t, customer, [cartItem(model)])).json().id as string;
    const res = await paySimulator(t, id, undefined, {
      ...ADDRESS,
      city: 'FPO',
      state: 'AP',
      postalCode: '96601',
    });
    expect(res.statusCode).toBe(200);
    const order = (await orderOfSession(t, id))!;
    expect(order).toMatchObject({ status: 'paid', shippingState: 'AP' });
    expect((await openFlags(t, order.id)).map((f) => f.kind)).toEqual(['address_unreadable']);
  });

  it('refuses line breaks, tabs and direction marks in every name and address field, changing nothing', async () => {
    const id = (await startCheckout(t, customer, [cartItem(model, { quantity: 2 })])).json().id as string;
    const before = {
      order: (await orderOfSession(t, id))!.status,
      session: (await t.database.db.select().from(simulatorSessions).where(eq(simulatorSessions.id, id)))[0]!
        .status,
      events: await countRows(t.database.db, orderEvents),
      mails: await countRows(t.database.db, outbox),
    };
    for (const field of ['name', 'line1', 'line2', 'city'] as const) {
      for (const bad of ['Ada\nLovelace', 'Ada\r\nEvil: header', 'Ada\tL', 'evil\u202Egnp.exe', 'x\u2066y']) {
        const res = await paySimulator(t, id, undefined, { ...ADDRESS, [field]: bad });
        expect(res.statusCode, `${field}: ${JSON.stringify(bad)}`).toBe(400);
        expect(res.json()).toEqual({ error: ADDRESS_MSG.characters, field: `shipping.${field}` });
      }
    }
    // NUL is refused before any route reads the body (body-guard.ts), with its own clear message.
    const nul = await paySimulator(t, id, undefined, { ...ADDRESS, name: 'nul\u0000' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ error: 'The request contains a character that is not allowed.' });
    expect({
      order: (await orderOfSession(t, id))!.status,
      session: (await t.database.db.select().from(simulatorSessions).where(eq(simulatorSessions.id, id)))[0]!
        .status,
      events: await countRows(t.database.db, orderEvents),
      mails: await countRows(t.database.db, outbox),
    }).toEqual(before);
    // Accents, apostrophes and other scripts are names, not attacks.
    expect(
      (await paySimulator(t, id, undefined, { ...ADDRESS, name: "Zoë O'Brien-Łukasz 李" })).statusCode,
    ).toBe(200);
  });

  it('takes out of the saved cart exactly the lines the order paid for', async () => {
    const other = await uploadBox(t, customer, 31, 'other.stl');
    const paidLine = cartItem(model, { quantity: 3, color: 'red', strength: 4 });
    const keptLine = cartItem(other, { quantity: 1 });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/cart',
      headers: { 'content-type': 'application/json', origin: 'http://shop.test', cookie: customer.cookie },
      payload: JSON.stringify({ items: [paidLine, keptLine] }),
    });
    expect(put.statusCode).toBe(200);
    const id = (await startCheckout(t, customer, [paidLine])).json().id as string;
    const cart = async () =>
      (await t.app.inject({ url: '/api/cart', headers: { cookie: customer.cookie } })).json().items;
    // Not paid yet: the cart is as it was.
    expect(await cart()).toHaveLength(2);
    await paySimulator(t, id);
    expect((await cart()).map((i: { filePath: string }) => i.filePath)).toEqual([other]);
  });

  it('marks a simulator order as a test order on My Orders and in the status answer', async () => {
    const id = (await startCheckout(t, customer, [cartItem(model, { quantity: 5 })])).json().id as string;
    await paySimulator(t, id);
    const order = (await orderOfSession(t, id))!;
    const mine = (
      await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: customer.cookie } })
    ).json();
    expect(mine.find((o: { id: number }) => o.id === order.id)).toMatchObject({
      test_mode: true,
      status: 'paid',
    });
    const status = await t.app.inject({
      url: `/api/checkout/status?session_id=${id}`,
      headers: { cookie: customer.cookie },
    });
    expect(status.json()).toMatchObject({ orderId: order.id, status: 'paid', testMode: true });
  });

  it('flags a paid order holding a model the analysis corrected, once, not blocking', async () => {
    const probe = merged(box(20, 20, 20), inverted(box(20, 20, 20, 30, 0, 0)));
    const up = await t.app.inject(
      uploadRequest({ fileName: 'probe.stl', bytes: meshStl(probe) }, customer.cookie),
    );
    expect(up.statusCode).toBe(201);
    const id = (await startCheckout(t, customer, [cartItem(up.json().id)])).json().id as string;
    // Not paid yet: no flag (nothing to print).
    const order = (await orderOfSession(t, id))!;
    expect(await openFlags(t, order.id)).toEqual([]);
    await paySimulator(t, id);
    expect((await orderOfSession(t, id))!.status).toBe('paid');
    const flags = await openFlags(t, order.id);
    expect(flags).toMatchObject([{ kind: 'model_corrected', blocking: false }]);
    expect(flags[0]!.details).toContain('probe.stl (1 inside out)');
    const mails = await drainedMails(t);
    expect(mails.filter((m) => m.headers.subject?.includes(`Order #${order.id} needs review`))).toHaveLength(
      1,
    );
  });

  it('prefills the simulator page for the order’s own customer only', async () => {
    const id = (await startCheckout(t, customer, [cartItem(model, { quantity: 6 })])).json().id as string;
    const page = (cookie?: string) =>
      t.app.inject({ url: `/api/pay/simulator/${id}`, headers: cookie ? { cookie } : {} });
    expect((await page(customer.cookie)).json().prefill).toMatchObject({
      line1: expect.any(String),
      country: 'US',
    });
    expect((await page()).json().prefill).toBeNull();
    const stranger = await makeCustomer(t);
    expect((await page(stranger.cookie)).json().prefill).toBeNull();
  });
});

describe('POST /api/cart/quote', () => {
  it('is rate-limited per address, visitor or not, and a refused quote changes nothing', async () => {
    const t = await buildTestApp();
    try {
      const customer = await makeCustomer(t);
      const model = await uploadBox(t, customer, 30, 'q.stl');
      const body = { items: [{ modelId: model, color: '#007bff', strength: 3, quantity: 1 }] };
      let ok = 0;
      let limited: { statusCode: number; headers: Record<string, unknown>; json(): unknown } | null = null;
      for (let i = 0; i < 80 && !limited; i++) {
        const res = await post(t, '/api/cart/quote', body, customer.cookie);
        if (res.statusCode === 200) ok++;
        else limited = res;
      }
      expect(ok).toBe(60);
      expect(limited!.statusCode).toBe(429);
      expect(limited!.headers['retry-after']).toBeDefined();
      expect(limited!.json()).toEqual({
        error: 'Too many price requests. Please wait a moment and try again.',
      });
      // Another address is served.
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/cart/quote',
        remoteAddress: '203.0.113.9',
        headers: { 'content-type': 'application/json', origin: 'http://shop.test' },
        payload: JSON.stringify(body),
      });
      expect(elsewhere.statusCode).toBe(200);
      expect(await countRows(t.database.db, orders)).toBe(0);
    } finally {
      await t.close();
    }
  });
});
