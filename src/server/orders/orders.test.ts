import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPayload } from '../../shared/orders.ts';
import { createLoggedInUser } from '../auth/testing.ts';
import {
  ADDRESS,
  CARD,
  cartItem,
  makeCustomer,
  post,
  startCheckout,
  uploadBox,
} from '../checkout/testing.ts';
import { orderItems, orders } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function placeOrder(userId: number, status: string, items: { fileName: string; quantity: number }[]) {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      userId,
      status,
      totalCents: 2450,
      subtotalCents: 2450,
      trackingNumber: status === 'shipped' ? '1Z999AA10123456784' : null,
      shippingName: 'Ada Lovelace',
      shippingLine1: '1 Main St',
      shippingCity: 'Madison',
      shippingState: 'WI',
      shippingPostalCode: '53703',
      shippingCountry: 'US',
    })
    .returning();
  for (const item of items) {
    await t.database.db.insert(orderItems).values({
      orderId: order!.id,
      fileName: item.fileName,
      color: '#dc3545',
      strength: 4,
      quantity: item.quantity,
      unitPriceCents: 1225,
      lineTotalCents: 1225 * item.quantity,
      notes: 'matte please',
    });
  }
  return order!;
}

describe('GET /api/get_orders.php', () => {
  it('answers 401 when logged out', async () => {
    const res = await t.app.inject('/api/get_orders.php');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('error');
  });

  it("lists only the caller's orders with the fields of docs/api.md, newest first", async () => {
    const alice = await createLoggedInUser(t);
    const bob = await createLoggedInUser(t);
    await placeOrder(bob.user.id, 'paid', [{ fileName: 'bob.stl', quantity: 1 }]);
    const first = await placeOrder(alice.user.id, 'shipped', [{ fileName: 'cube.stl', quantity: 2 }]);
    const second = await placeOrder(alice.user.id, 'pending', []);

    const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: alice.cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    expect(body[0].items).toEqual([]);
    expect(body[1]).toMatchObject({
      status: 'shipped',
      total_amount: 24.5,
      currency: 'USD',
      tracking_number: '1Z999AA10123456784',
      shipping_name: 'Ada Lovelace',
      shipping_city: 'Madison',
      shipping_country: 'US',
      items: [
        {
          file_name: 'cube.stl',
          quantity: 2,
          color: '#dc3545',
          strength: 4,
          cost: 12.25,
          notes: 'matte please',
          unique_file_path: null,
          preview_image_url: null,
        },
      ],
    });
    expect(typeof body[1].created_at).toBe('string');
    // An order from before shipping methods: free, no method, no tax, no arrival window.
    expect(body[1]).toMatchObject({
      subtotal: 24.5,
      shipping_amount: 0,
      shipping_method: null,
      tax_amount: 0,
      tax_lines: [],
      arrives_from: null,
      arrives_by: null,
    });
  });

  it('shows the parts of the total: items, the shipping method paid, each tax, the ship-by date and arrival window', async () => {
    const erin = await createLoggedInUser(t);
    await t.database.db.insert(orders).values({
      userId: erin.user.id,
      status: 'paid',
      totalCents: 10164,
      subtotalCents: 7650,
      shippingCents: 1995,
      shippingMethod: 'US Expedited',
      shippingRate: {
        id: 'us-expedited',
        name: 'US Expedited',
        priceCents: 1995,
        transitDays: { min: 1, max: 2 },
      },
      taxCents: 519,
      taxLines: [
        { amountCents: 421, label: 'Sales tax 5.5 % (WI)' },
        { amountCents: 98, label: 'County tax 0.5 %' },
      ],
      shipBy: '2026-12-01',
      arrivesFrom: '2026-12-02',
      arrivesBy: '2026-12-03',
    });
    const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: erin.cookie } });
    expect(res.headers['cache-control']).toBe('no-store');
    const [order] = res.json();
    expect(order).toMatchObject({
      total_amount: 101.64,
      subtotal: 76.5,
      shipping_amount: 19.95,
      shipping_method: 'US Expedited',
      tax_amount: 5.19,
      tax_lines: [
        { label: 'Sales tax 5.5 % (WI)', amount: 4.21 },
        { label: 'County tax 0.5 %', amount: 0.98 },
      ],
      ship_by: '2026-12-01',
      arrives_from: '2026-12-02',
      arrives_by: '2026-12-03',
    });
    expect(orderPayload.parse(order)).toEqual(order);
  });

  it('answers an empty list to a user without orders, and 405 to a POST', async () => {
    const carol = await createLoggedInUser(t);
    const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: carol.cookie } });
    expect(res.json()).toEqual([]);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/get_orders.php',
      headers: { cookie: carol.cookie },
    });
    expect(post.statusCode).toBe(405);
  });

  it('shows a checkout: the line total after the quantity discount, Complete payment while pending, then ship-by', async () => {
    const dan = await makeCustomer(t);
    const model = await uploadBox(t, dan, 40, 'ten.stl');
    const checkout = await startCheckout(t, dan, [cartItem(model, { quantity: 10, strength: 5 })]);
    const { id, url } = checkout.json();
    const list = async () =>
      (await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: dan.cookie } })).json();
    const [pending] = await list();
    expect(pending).toMatchObject({ status: 'pending', payment_url: url, ship_by: null });
    const [item] = pending.items;
    expect(item).toMatchObject({ file_name: 'ten.stl', quantity: 10, unique_file_path: model });
    // 5 % off for 10 pieces: the line total is not cost x quantity.
    expect(item.line_total).toBeCloseTo(item.cost * 10 * 0.95, 2);
    expect(pending.subtotal).toBe(item.line_total);
    const paying = await post(t, `/api/pay/simulator/${id}/pay`, {
      card: CARD,
      shipping: ADDRESS,
      shippingOption: 'us-expedited',
    });
    expect(paying.statusCode, paying.body).toBe(200);
    const [paid] = await list();
    expect(paid).toMatchObject({
      status: 'paid',
      payment_url: null,
      shipping_name: 'Ada Lovelace',
      subtotal: item.line_total,
      shipping_method: 'US Expedited',
      shipping_amount: 19.95,
      tax_amount: 0,
      tax_lines: [],
    });
    expect(paid.total_amount).toBeCloseTo(item.line_total + 19.95, 2);
    expect(paid.ship_by).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(paid.arrives_from > paid.ship_by).toBe(true);
    expect(paid.arrives_by >= paid.arrives_from).toBe(true);
  });
});
