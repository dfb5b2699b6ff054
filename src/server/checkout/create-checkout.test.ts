import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../auth/testing.ts';
import { models, orderEvents, orderItems, orders, simulatorSessions, users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { type Customer, cartItem, makeCustomer, post, startCheckout, uploadBox } from './testing.ts';

// POST /api/create-checkout-session.php: every bad cart is refused with a message naming the file and
// leaves no order; a good one is priced by the server and gets one hosted session.

let t: TestApp;
let alice: Customer;
let bob: Customer;
let cube: string; // alice's 30 mm cube
let bobs: string; // bob's 20 mm cube
let huge: string; // alice's 300 mm cube: too big for the default 256 mm printer
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  alice = await makeCustomer(t);
  bob = await makeCustomer(t);
  cube = await uploadBox(t, alice, 30, 'cube.stl');
  bobs = await uploadBox(t, bob, 20, 'bobs.stl');
  huge = await uploadBox(t, alice, 300, 'huge.stl');
});
afterAll(() => t.close());

async function counts() {
  const db = t.database.db;
  return {
    orders: await countRows(db, orders),
    items: await countRows(db, orderItems),
    events: await countRows(db, orderEvents),
    sessions: await countRows(db, simulatorSessions),
  };
}

async function expectRefused(
  customer: Customer | null,
  cartItems: unknown,
  status: number,
  error: string | RegExp,
) {
  const before = await counts();
  const res = await startCheckout(t, customer, cartItems);
  expect(res.statusCode).toBe(status);
  const message = res.json().error;
  if (typeof error === 'string') expect(message).toBe(error);
  else expect(message).toMatch(error);
  expect(await counts()).toEqual(before);
}

describe('who may check out', () => {
  it('answers 401 when logged out', async () => {
    await expectRefused(null, [cartItem(cube)], 401, 'Please log in first.');
  });

  it('answers 403 to an account that is not verified (any more)', async () => {
    const carol = await makeCustomer(t);
    await t.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, carol.id));
    await expectRefused(carol, [cartItem(cube)], 403, /Account not verified/);
  });
});

describe('bad carts: 400 naming the file, and no order', () => {
  it('refuses an empty cart and a cart that is not a list', async () => {
    await expectRefused(alice, [], 400, 'Your cart is empty.');
    await expectRefused(alice, 'cube', 400, 'The cart is not valid.');
    await expectRefused(alice, undefined, 400, 'The cart is not valid.');
  });

  it('refuses more than 50 lines', async () => {
    await expectRefused(
      alice,
      Array.from({ length: 51 }, () => cartItem(cube)),
      400,
      'A cart holds at most 50 lines.',
    );
  });

  it("refuses an unknown model, another customer's model and a removed one alike", async () => {
    const unavailable = /^"(cube|gone|bobs)\.stl" is not available any more\./;
    await expectRefused(
      alice,
      [cartItem('m_AAAAAAAAAAAAAAAAAAAAAA', { fileName: 'gone.stl' })],
      400,
      unavailable,
    );
    await expectRefused(alice, [cartItem('../../etc/passwd', { fileName: 'gone.stl' })], 400, unavailable);
    await expectRefused(
      alice,
      [cartItem(bobs, { fileName: 'bobs.stl' })],
      400,
      /^"bobs\.stl" is not available/,
    );
    const removed = await uploadBox(t, alice, 12, 'removed.stl');
    await t.database.db.delete(models).where(eq(models.id, removed));
    await expectRefused(
      alice,
      [cartItem(removed, { fileName: 'removed.stl' })],
      400,
      /^"removed\.stl" is not available/,
    );
  });

  it('refuses a bad color, strength, quantity or notes, naming the file', async () => {
    for (const color of ['purple', '#123456', '', 7]) {
      await expectRefused(alice, [cartItem(cube, { color })], 400, '"cube.stl": choose one of our colors.');
    }
    for (const strength of [0, 6, 2.5, '3', null]) {
      await expectRefused(
        alice,
        [cartItem(cube, { strength })],
        400,
        '"cube.stl": the strength must be 1 to 5.',
      );
    }
    for (const quantity of [0, -1, 1.5, 101, 1e9, '2', null]) {
      await expectRefused(
        alice,
        [cartItem(cube, { quantity })],
        400,
        '"cube.stl": the quantity must be a whole number from 1 to 100.',
      );
    }
    await expectRefused(
      alice,
      [cartItem(cube, { notes: 'x'.repeat(1001) })],
      400,
      '"cube.stl": notes can be at most 1000 characters.',
    );
    await expectRefused(
      alice,
      [cartItem(cube, { notes: 42 })],
      400,
      '"cube.stl": notes can be at most 1000 characters.',
    );
  });

  it('refuses a model too big for the printer, and a line that is not an object', async () => {
    await expectRefused(
      alice,
      [cartItem(huge)],
      400,
      '"huge.stl" is too big for our printer (at most 256 x 256 x 256 mm).',
    );
    await expectRefused(alice, [cartItem(cube), 'x'], 400, 'Item 2 of the cart is not valid.');
  });

  it('refuses the whole cart when one line of several is bad', async () => {
    await expectRefused(
      alice,
      [cartItem(cube), cartItem(bobs, { fileName: 'bobs.stl' })],
      400,
      /"bobs\.stl"/,
    );
  });
});

describe('a good cart', () => {
  it("charges the server's price whatever the client's cost says (price tampering)", async () => {
    const dave = await makeCustomer(t);
    const model = await uploadBox(t, dave, 40, 'block.stl');
    const quote = await post(
      t,
      '/api/quote',
      { modelId: model, color: '#dc3545', strength: 5, quantity: 10 },
      dave.cookie,
    );
    const expected = quote.json();
    const res = await startCheckout(t, dave, [
      cartItem(model, {
        color: 'red',
        strength: 5,
        quantity: 10,
        cost: 0.01,
        fileName: 'cheap.stl',
        notes: ' matte ',
      }),
    ]);
    expect(res.statusCode).toBe(200);
    const { id, url } = res.json();
    expect(url).toBe(`http://shop.test/pay/simulator/${id}`);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, id));
    expect(order).toMatchObject({
      userId: dave.id,
      status: 'pending',
      currency: 'usd',
      totalCents: Math.round(expected.lineTotal * 100),
    });
    const items = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(items).toEqual([
      expect.objectContaining({
        modelId: model,
        fileName: 'block.stl', // the stored name, not the client's
        color: '#dc3545',
        strength: 5,
        quantity: 10,
        notes: 'matte',
        unitPriceCents: Math.round(expected.unitPrice * 100),
        lineTotalCents: Math.round(expected.lineTotal * 100),
      }),
    ]);
    expect(items[0]!.grams).toBeGreaterThan(0);
    expect(items[0]!.printHours).toBeGreaterThan(0);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id));
    expect(events).toEqual([
      expect.objectContaining({ actor: 'customer', fromStatus: null, toStatus: 'pending' }),
    ]);
    const session = await t.app.inject(`/api/pay/simulator/${id}`);
    expect(session.json()).toMatchObject({ total: expected.lineTotal, status: 'open' });
  });

  it('card, cart and checkout agree to the cent, quantity discount included', async () => {
    const erin = await makeCustomer(t);
    const a = await uploadBox(t, erin, 35, 'a.stl');
    const b = await uploadBox(t, erin, 18, 'b.stl');
    const lines = [
      { modelId: a, color: '#28a745', strength: 5, quantity: 10 },
      { modelId: b, color: '#343a40', strength: 2, quantity: 3 },
      { modelId: a, color: '#dc3545', strength: 5, quantity: 55 },
    ];
    const cards = [];
    for (const l of lines) cards.push((await post(t, '/api/quote', l, erin.cookie)).json());
    const cart = (await post(t, '/api/cart/quote', { items: lines }, erin.cookie)).json();
    expect(cart.lines).toEqual(
      cards.map((c) => ({
        unitPrice: c.unitPrice,
        lineTotal: c.lineTotal,
        discountPercent: c.breakdown.discountPercent,
      })),
    );
    expect(cards.map((c) => c.breakdown.discountPercent)).toEqual([5, 0, 10]);
    const cardTotalCents = cards.reduce((s, c) => s + Math.round(c.lineTotal * 100), 0);
    expect(Math.round(cart.total * 100)).toBe(cardTotalCents);
    const res = await startCheckout(
      t,
      erin,
      lines.map((l) => cartItem(l.modelId, { ...l, cost: 1 })),
    );
    const [order] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.paymentSessionId, res.json().id));
    expect(order!.totalCents).toBe(cardTotalCents);
  });

  it('reuses the open session for the same cart (double click, second tab), concurrently too', async () => {
    const fay = await makeCustomer(t);
    const model = await uploadBox(t, fay, 25, 'twice.stl');
    const cart = [cartItem(model, { quantity: 2 })];
    const before = await counts();
    const [first, second] = await Promise.all([startCheckout(t, fay, cart), startCheckout(t, fay, cart)]);
    const third = await startCheckout(t, fay, cart);
    const answers = [first, second, third];
    // Each answer is the one session, or a 409 while the first request was still making it.
    const ok = answers.filter((r) => r.statusCode === 200);
    for (const r of answers.filter((x) => x.statusCode !== 200)) expect(r.statusCode).toBe(409);
    expect(new Set(ok.map((r) => r.json().id)).size).toBe(1);
    expect(third.statusCode).toBe(200);
    expect((await counts()).orders).toBe(before.orders + 1);
    // A different cart is a new order.
    const changed = await startCheckout(t, fay, [cartItem(model, { quantity: 3 })]);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().id).not.toBe(third.json().id);
  });

  it('lets a customer re-order a model of an earlier order', async () => {
    const gus = await makeCustomer(t);
    const model = await uploadBox(t, gus, 22, 'again.stl');
    expect((await startCheckout(t, gus, [cartItem(model)])).statusCode).toBe(200);
    // The model now belongs to someone else (e.g. the account was merged): the order still lets gus order it.
    await t.database.db.update(models).set({ ownerUserId: bob.id }).where(eq(models.id, model));
    expect((await startCheckout(t, gus, [cartItem(model, { quantity: 4 })])).statusCode).toBe(200);
  });

  it('answers 405 to a GET', async () => {
    const res = await t.app.inject({
      url: '/api/create-checkout-session.php',
      headers: { cookie: alice.cookie },
    });
    expect(res.statusCode).toBe(405);
  });
});

describe('POST /api/cart/quote', () => {
  it('prices each line, and says which lines cannot be ordered', async () => {
    const res = await post(
      t,
      '/api/cart/quote',
      {
        items: [
          { modelId: cube, color: '#007bff', strength: 3, quantity: 1 },
          { modelId: bobs, color: '#007bff', strength: 3, quantity: 1 },
          { modelId: bobs, fileName: 'mine.stl', color: '#007bff', strength: 3, quantity: 1 },
          { modelId: cube, color: '#007bff', strength: 3, quantity: 500 },
        ],
      },
      alice.cookie,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.lines[0]).toEqual({ unitPrice: 12, lineTotal: 12, discountPercent: 0 });
    expect(body.lines[1].error).toMatch(/^"Item 2" is not available any more\./);
    expect(body.lines[2].error).toMatch(/^"mine\.stl" is not available any more\./);
    expect(body.lines[3].error).toBe('"cube.stl": the quantity must be a whole number from 1 to 100.');
    expect(body.total).toBe(12);
  });

  it('refuses an empty or oversized request with 400', async () => {
    expect((await post(t, '/api/cart/quote', { items: [] }, alice.cookie)).statusCode).toBe(400);
    expect((await post(t, '/api/cart/quote', {}, alice.cookie)).statusCode).toBe(400);
  });
});
