import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderDetail } from '../../../shared/admin.ts';
import { countRows, drainedMails } from '../../auth/testing.ts';
import { type Customer, makeCustomer, uploadBox } from '../../checkout/testing.ts';
import { orderItems, orders, outbox, paymentEvents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, adminPost, makeAdmin, paidOrder } from './testing.ts';

// GET /api/admin/orders/:id and POST .../notes: the order as staff see it, one timeline of who did what
// and when, and notes that stay internal or reach the customer (My Orders and a mail).

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let ann: Customer;
let orderId: number;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  admin = await makeAdmin(t, 'desk_admin');
  ann = await makeCustomer(t);
  const model = await uploadBox(t, ann, 20, 'bracket.stl');
  orderId = await paidOrder(t, ann, model, { quantity: 2, color: 'red', strength: 4, notes: 'matte please' });
});
afterAll(() => t.close());

const detail = async (id: number | string = orderId) => {
  const res = await adminGet(t, `/api/admin/orders/${id}`, admin.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return adminOrderDetail.parse(res.json());
};
const note = (text: string, visibleToCustomer: boolean, id = orderId) =>
  adminPost(t, `/api/admin/orders/${id}/notes`, { text, visibleToCustomer }, admin.cookie);
const myOrder = async () => {
  const res = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: ann.cookie } });
  return res.json().find((o: { id: number }) => o.id === orderId);
};

describe('GET /api/admin/orders/:id', () => {
  it('shows the customer, address, items with their model, payment facts and the moves staff may make', async () => {
    const d = await detail();
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(d).toMatchObject({
      id: orderId,
      status: 'paid',
      testMode: true,
      amountPaidCents: row!.totalCents,
      refundableCents: row!.totalCents,
      customer: { userId: ann.id, name: 'Ada Lovelace', email: row!.customerEmail ?? expect.any(String) },
      shipping: { name: 'Ada Lovelace', city: 'Madison', state: 'WI', postalCode: '53703', country: 'US' },
      payment: {
        provider: 'simulator',
        sessionId: row!.paymentSessionId,
        paymentIntentId: row!.paymentIntentId,
      },
      allowedStatuses: ['queued', 'cancelled'],
      nextStatus: 'queued',
      refunds: [],
      flags: [],
    });
    expect(d.items).toEqual([
      expect.objectContaining({
        fileName: 'bracket.stl',
        previewUrl: `/api/models/${d.items[0]!.modelId}/preview.png`,
        color: '#dc3545',
        strength: 4,
        quantity: 2,
        notes: 'matte please',
        dimensions: { x: 20, y: 20, z: 20 },
        volumeCm3: 8,
        printedAt: null,
        reprints: 0,
        correctedShells: 0,
      }),
    ]);
    expect(d.items[0]!.grams).toBeGreaterThan(0);
    // The money in parts and the dates, as the order keeps them (whatever the checkout stored).
    expect(d).toMatchObject({
      subtotalCents: row!.subtotalCents,
      shippingCents: row!.shippingCents,
      taxCents: row!.taxCents,
      taxLines: row!.taxLines ?? [],
      shipTo: row!.shipTo,
      shipBy: row!.shipBy,
      arrivesFrom: row!.arrivesFrom,
      arrivesBy: row!.arrivesBy,
      shipping: { method: row!.shippingMethod },
    });
    expect(d.subtotalCents + d.shippingCents + d.taxCents).toBe(d.totalCents);
  });

  it('shows the shipping method and its price, the tax lines, ship-to and the arrival window', async () => {
    const model = await uploadBox(t, ann, 15, 'hinge.stl');
    const id = await paidOrder(t, ann, model);
    const [before] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    const total = before!.subtotalCents + 695 + 171;
    await t.database.db
      .update(orders)
      .set({
        shipTo: 'US',
        shippingCents: 695,
        shippingMethod: 'US Standard',
        shippingRate: {
          id: 'us-standard',
          name: 'US Standard',
          priceCents: 695,
          transitDays: { min: 3, max: 5 },
        },
        taxCents: 171,
        taxLines: [{ amountCents: 171, label: 'Sales tax 5.5 % (WI)' }],
        totalCents: total,
        amountPaidCents: total,
        shipBy: '2026-12-01',
        arrivesFrom: '2026-12-04',
        arrivesBy: '2026-12-08',
      })
      .where(eq(orders.id, id));
    const d = await detail(id);
    expect(d).toMatchObject({
      subtotalCents: before!.subtotalCents,
      shippingCents: 695,
      taxCents: 171,
      taxLines: [{ amountCents: 171, label: 'Sales tax 5.5 % (WI)' }],
      totalCents: total,
      refundableCents: total,
      shipTo: 'US',
      shipBy: '2026-12-01',
      arrivesFrom: '2026-12-04',
      arrivesBy: '2026-12-08',
      shipping: { method: 'US Standard' },
    });
  });

  it('shows an order from before shipping methods with no method, no tax and no window', async () => {
    const model = await uploadBox(t, ann, 12, 'clip.stl');
    const id = await paidOrder(t, ann, model);
    const [before] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    await t.database.db
      .update(orders)
      .set({
        shipTo: null,
        shippingCents: 0,
        shippingMethod: null,
        shippingRate: null,
        taxCents: 0,
        taxLines: null,
        totalCents: before!.subtotalCents,
        amountPaidCents: before!.subtotalCents,
        arrivesFrom: null,
        arrivesBy: null,
      })
      .where(eq(orders.id, id));
    expect(await detail(id)).toMatchObject({
      shippingCents: 0,
      taxCents: 0,
      taxLines: [],
      totalCents: before!.subtotalCents,
      shipTo: null,
      arrivesFrom: null,
      arrivesBy: null,
      shipping: { method: null },
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['424242', 'abc', '0', '-1', '2147483648', '1e3']) {
      const res = await adminGet(t, `/api/admin/orders/${id}`, admin.cookie);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Order not found.' });
    }
  });
});

describe('notes', () => {
  it('keeps an internal note on the timeline only: not on My Orders, not mailed', async () => {
    const mails = await countRows(t.database.db, outbox);
    const res = await note('Customer called about colour.', false);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order.timeline.at(-1)).toMatchObject({
      kind: 'note',
      actor: 'admin',
      actorName: 'desk_admin',
      text: 'Customer called about colour.',
      visibleToCustomer: false,
    });
    expect(await countRows(t.database.db, outbox)).toBe(mails);
    expect((await myOrder()).notes).toEqual([]);
  });

  it('shows a note for the customer on My Orders and mails it once', async () => {
    const mails = await countRows(t.database.db, outbox);
    const res = await note('Your print ships Monday.', true);
    expect(res.statusCode).toBe(200);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
    expect((await myOrder()).notes).toEqual([
      { text: 'Your print ships Monday.', created_at: expect.any(String) },
    ]);
    const mail = (await drainedMails(t)).at(-1)!;
    expect(mail.headers.subject).toBe(`[TEST ORDER] A message about order #${orderId}`);
    expect(mail.text).toContain('Your print ships Monday.');
  });

  it('refuses an empty or oversized note, or one without its audience, with 400; an unknown order 404', async () => {
    const mails = await countRows(t.database.db, outbox);
    const events = (await detail()).timeline.length;
    for (const body of [
      { text: '  ', visibleToCustomer: false },
      { text: 'x'.repeat(5001), visibleToCustomer: true },
      { text: 'hi' },
    ]) {
      const res = await adminPost(t, `/api/admin/orders/${orderId}/notes`, body, admin.cookie);
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await note('hi', true, 999999)).statusCode).toBe(404);
    expect((await detail()).timeline.length).toBe(events);
    expect(await countRows(t.database.db, outbox)).toBe(mails);
  });
});

describe('the timeline', () => {
  it('shows payments, status changes, notes, mails, refunds, reprints and printed items with who and when, oldest first', async () => {
    await t.database.db.insert(paymentEvents).values({
      id: `evt_admin_${orderId}`,
      provider: 'stripe',
      type: 'charge.refunded',
      orderId,
      outcome: 'ignored',
    });
    const move = (body: Record<string, unknown>) =>
      adminPost(t, `/api/admin/orders/${orderId}/status`, body, admin.cookie);
    expect((await move({ status: 'queued', note: 'Blue batch tomorrow' })).statusCode).toBe(200);
    expect((await move({ status: 'printing' })).statusCode).toBe(200);
    const [item] = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const base = `/api/admin/orders/${orderId}/items/${item!.id}`;
    expect((await adminPost(t, `${base}/printed`, {}, admin.cookie)).statusCode).toBe(200);
    expect((await adminPost(t, `${base}/reprint`, { reason: 'layer shift' }, admin.cookie)).statusCode).toBe(
      200,
    );
    const refunded = await adminPost(
      t,
      `/api/admin/orders/${orderId}/refund`,
      { amountCents: 150, reason: 'delay' },
      admin.cookie,
    );
    expect(refunded.statusCode).toBe(200);

    const { timeline } = await detail();
    const times = timeline.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(timeline.map((e) => e.key)).size).toBe(timeline.length);
    const find = (kind: string, text: string | RegExp) =>
      timeline.find(
        (e) => e.kind === kind && (typeof text === 'string' ? e.text === text : text.test(e.text)),
      );
    expect(find('payment', 'charge.refunded: ignored')).toMatchObject({
      key: `p:evt_admin_${orderId}`,
      actor: 'payment provider',
    });
    expect(find('status', 'Blue batch tomorrow')).toMatchObject({
      actor: 'admin',
      actorName: 'desk_admin',
      fromStatus: 'paid',
      toStatus: 'queued',
    });
    expect(find('status', 'Moved to Printing')).toMatchObject({ fromStatus: 'queued', toStatus: 'printing' });
    expect(find('mail', /is queued for printing$/)).toMatchObject({ actorName: 'desk_admin' });
    expect(find('printed', 'bracket.stl printed')).toMatchObject({ actorName: 'desk_admin' });
    // A reprint shows once, though the item's history records it too.
    expect(timeline.filter((e) => e.kind === 'reprint')).toEqual([
      expect.objectContaining({ text: 'Reprint of bracket.stl (2 x): layer shift', actorName: 'desk_admin' }),
    ]);
    expect(find('refund', 'Refunded $1.50 USD: delay')).toMatchObject({
      amountCents: 150,
      actorName: 'desk_admin',
    });
    expect(find('note', 'Your print ships Monday.')).toMatchObject({ visibleToCustomer: true });
  });
});
