import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedInUser } from '../auth/testing.ts';
import { cartItem, makeCustomer, paySimulator, startCheckout, uploadBox } from '../checkout/testing.ts';
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
    expect(pending.total_amount).toBe(item.line_total);
    await paySimulator(t, id);
    const [paid] = await list();
    expect(paid).toMatchObject({ status: 'paid', payment_url: null, shipping_name: 'Ada Lovelace' });
    expect(paid.ship_by).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
