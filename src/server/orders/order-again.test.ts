import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAgainPayload } from '../../shared/orders.ts';
import { type Customer, makeCustomer, post, uploadBox } from '../checkout/testing.ts';
import { models, orderItems, orders } from '../db/schema.ts';
import { findModel } from '../models/models-repository.ts';
import { priceModelLine } from '../pricing/price-model.ts';
import { loadPricingSettings, savePricingOverrides } from '../pricing/settings-repository.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';

// POST /api/orders/:id/order-again: the caller's order as cart lines at the size ordered and today's
// price, and the lines that cannot be ordered any more, with why.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Line = {
  modelId: string | null;
  fileName: string;
  color?: string;
  strength?: number;
  quantity?: number;
  unitPriceCents?: number;
  notes?: string;
};

/** An order of the customer's, straight in the database (any status), its lines as given. */
async function placeOrder(customer: Customer, status: string, lines: Line[]) {
  const priced = lines.map((l) => ({
    ...l,
    quantity: l.quantity ?? 1,
    unitPriceCents: l.unitPriceCents ?? 1200,
  }));
  const subtotal = priced.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
  const [order] = await t.database.db
    .insert(orders)
    .values({
      userId: customer.id,
      status,
      totalCents: subtotal + 695,
      subtotalCents: subtotal,
      shippingCents: 695,
      shippingMethod: 'US Standard',
    })
    .returning();
  for (const l of priced) {
    await t.database.db.insert(orderItems).values({
      orderId: order!.id,
      modelId: l.modelId,
      fileName: l.fileName,
      color: l.color ?? '#dc3545',
      strength: l.strength ?? 3,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      lineTotalCents: l.unitPriceCents * l.quantity,
      notes: l.notes ?? '',
    });
  }
  return order!.id;
}

const orderAgain = (id: number | string, customer?: Customer) =>
  post(t, `/api/orders/${id}/order-again`, {}, customer?.cookie);

/** Today's unit price of a model line, as the cart and the checkout compute it. */
async function todaysUnitPrice(modelId: string, strength: number, quantity: number) {
  const model = (await findModel(t.database.db, modelId))!;
  const price = priceModelLine(model, { strength, quantity }, await loadPricingSettings(t.database.db));
  return price.unitCents / 100;
}

describe('POST /api/orders/:id/order-again', () => {
  it("answers the order's lines as cart lines at today's price, after the pricing changed", async () => {
    const ada = await makeCustomer(t);
    const cube = await uploadBox(t, ada, 40, 'cube.stl');
    const small = await uploadBox(t, ada, 20, 'small.stl');
    const id = await placeOrder(ada, 'shipped', [
      { modelId: cube, fileName: 'cube.stl', color: '#dc3545', strength: 4, quantity: 3, notes: 'Matte.' },
      { modelId: small, fileName: 'small.stl', color: '#007bff', strength: 2, quantity: 1 },
    ]);
    const before = await todaysUnitPrice(cube, 4, 3);
    await savePricingOverrides(t.database.db, { pricePerGramCents: 9 }, { userId: null, now: new Date() });
    const today = await todaysUnitPrice(cube, 4, 3);
    expect(today).toBeGreaterThan(before);

    const res = await orderAgain(id, ada);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = orderAgainPayload.parse(res.json());
    expect(body.unavailable).toEqual([]);
    expect(body.items).toHaveLength(2);
    const [first, second] = body.items;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filePath: cube,
      fileName: 'cube.stl',
      color: '#dc3545',
      strength: 4,
      cost: today,
      quantity: 3,
      previewImage: `/api/models/${cube}/preview.png`,
      volumeCm3: 64,
      dimensions: { x: 40, y: 40, z: 40 },
      notes: 'Matte.',
    });
    expect(second).toMatchObject({
      filePath: small,
      fileName: 'small.stl',
      color: '#007bff',
      strength: 2,
      quantity: 1,
      cost: await todaysUnitPrice(small, 2, 1),
      notes: '',
    });
    expect(first!.id).not.toBe(second!.id);
    // Nothing was written: the order is as it was.
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(order?.status).toBe('shipped');
    await savePricingOverrides(t.database.db, {}, { userId: null, now: new Date() });
  });

  it('gives back a scaled copy at the size ordered, and orders of any status', async () => {
    const ada = await makeCustomer(t);
    const model = await uploadBox(t, ada, 5, 'inches.stl');
    const scaled = await t.app.inject({
      method: 'POST',
      url: `/api/models/${model}/scale`,
      headers: { cookie: ada.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ factor: 25.4 }),
    });
    const scaledId = scaled.json().id as string;
    expect(scaledId).not.toBe(model);
    for (const status of ['cancelled', 'failed', 'pending', 'paid']) {
      const id = await placeOrder(ada, status, [{ modelId: scaledId, fileName: 'inches.stl' }]);
      const body = (await orderAgain(id, ada)).json();
      expect(body.items).toHaveLength(1);
      expect(body.items[0]).toMatchObject({ filePath: scaledId, dimensions: { x: 127, y: 127, z: 127 } });
    }
  });

  it('lists a line whose model is no longer stored, or whose color is no longer offered, as unavailable', async () => {
    const ada = await makeCustomer(t);
    const kept = await uploadBox(t, ada, 30, 'kept.stl');
    const gone = await uploadBox(t, ada, 25, 'gone.stl');
    const id = await placeOrder(ada, 'shipped', [
      { modelId: null, fileName: 'old.stl' },
      { modelId: gone, fileName: 'gone.stl' },
      { modelId: kept, fileName: 'kept.stl', color: '#123456' },
      { modelId: kept, fileName: 'kept.stl', color: '#28a745', quantity: 2 },
    ]);
    // The model removed after the order (its order items no longer name it).
    await t.database.db.update(orderItems).set({ modelId: null }).where(eq(orderItems.modelId, gone));
    await t.database.db.delete(models).where(eq(models.id, gone));

    const res = await orderAgain(id, ada);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ filePath: kept, color: '#28a745', quantity: 2 });
    expect(body.unavailable).toEqual([
      { fileName: 'old.stl', reason: 'This model is no longer stored.' },
      { fileName: 'gone.stl', reason: 'This model is no longer stored.' },
      { fileName: 'kept.stl', reason: 'This color is no longer offered.' },
    ]);
  });

  it("answers 404 for another customer's order, an unknown one and a bad id; 401 logged out; 405 to a GET", async () => {
    const ada = await makeCustomer(t);
    const bob = await makeCustomer(t);
    const model = await uploadBox(t, ada, 20, 'private.stl');
    const id = await placeOrder(ada, 'paid', [{ modelId: model, fileName: 'private.stl' }]);

    const other = await orderAgain(id, bob);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Order not found.' });
    expect(other.body).not.toContain('private.stl');
    for (const bad of [999_999, 'abc', 0, -1, '1.5', 99_999_999_999]) {
      const res = await orderAgain(bad, ada);
      expect(res.statusCode, String(bad)).toBe(404);
      expect(res.json()).toEqual({ error: 'Order not found.' });
    }
    const loggedOut = await orderAgain(id);
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toHaveProperty('error');
    const get = await t.app.inject({ url: `/api/orders/${id}/order-again`, headers: { cookie: ada.cookie } });
    expect(get.statusCode).toBe(405);
  });
});
