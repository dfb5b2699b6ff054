import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedInUser, drainedMails } from '../../auth/testing.ts';
import { orderFlags, orderItems } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, adminPost, insertOrder, makeAdmin } from './testing.ts';

// docs/security.md 21: what customers and staff type (a name, a file name, notes, reasons) comes back from
// the admin API as the same plain text, never interpreted, and every mail it reaches escapes it in its HTML
// part; a tracking number is checked (letters and digits only) before it is stored.

const XSS = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await makeAdmin(t)).cookie;
});
afterAll(() => t.close());

describe('HTML typed into the shop', () => {
  it('comes back as plain text in JSON and is escaped in every mail’s HTML part', async () => {
    const customer = await createLoggedInUser(t, { email: 'xss@example.com' });
    const db = t.database.db;
    const order = await insertOrder(
      db,
      customer.user.id,
      { shippingName: `Eve ${XSS}`, customerEmail: 'xss@example.com' },
      [{ fileName: `${XSS}.stl`, notes: XSS }],
    );
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    const [flag] = await db
      .insert(orderFlags)
      .values({ orderId: order.id, kind: 'address_unreadable', details: 'check' })
      .returning();
    const base = `/api/admin/orders/${order.id}`;
    const ok = async (url: string, body: unknown) => {
      const res = await adminPost(t, url, body, cookie);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res;
    };
    await ok(`${base}/notes`, { text: `Hi ${XSS}`, visibleToCustomer: true });
    await ok(`${base}/notes`, { text: `internal ${XSS}`, visibleToCustomer: false });
    await ok(`${base}/flags/${flag!.id}/resolve`, { note: `fixed ${XSS}` });
    await ok(`${base}/status`, { status: 'queued', note: `queued ${XSS}` });
    await ok(`${base}/items/${item!.id}/reprint`, { reason: `reprint ${XSS}` });
    await ok(`${base}/refund`, { amountCents: 100, reason: `sorry ${XSS}` });
    await ok(`${base}/status`, { status: 'printing' });
    const tracking = await adminPost(
      t,
      `${base}/status`,
      { status: 'shipped', carrier: 'ups', trackingNumber: XSS },
      cookie,
    );
    expect(tracking.statusCode).toBe(400);
    await ok(`${base}/status`, { status: 'cancelled', note: `cancelled ${XSS}` });

    const detail = (await adminGet(t, base, cookie)).json();
    expect(detail.customer.name).toBe(`Eve ${XSS}`);
    expect(detail.shipping.name).toBe(`Eve ${XSS}`);
    expect(detail.items[0]).toMatchObject({ fileName: `${XSS}.stl`, notes: XSS });
    expect(detail.flags[0].resolutionNote).toBe(`fixed ${XSS}`);
    expect(detail.refunds[0].reason).toBe(`sorry ${XSS}`);
    expect(detail.cancelReason).toBe(`cancelled ${XSS}`);
    expect(detail.trackingNumber).toBeNull();
    const texts = detail.timeline.map((e: { text: string }) => e.text);
    for (const expected of [`Hi ${XSS}`, `internal ${XSS}`, `queued ${XSS}`, `cancelled ${XSS}`])
      expect(texts).toContain(expected);
    expect(texts.some((s: string) => s.includes(`reprint ${XSS}`))).toBe(true);
    const list = (await adminGet(t, `/api/admin/orders?q=${encodeURIComponent('onerror')}`, cookie)).json();
    expect(list.orders.map((o: { customerName: string }) => o.customerName)).toEqual([`Eve ${XSS}`]);

    // Another order of hers goes all the way: the shipping mail names her too.
    const shipped = await insertOrder(db, customer.user.id, {
      shippingName: `Eve ${XSS}`,
      status: 'printing',
    });
    await ok(`/api/admin/orders/${shipped.id}/status`, {
      status: 'shipped',
      carrier: 'usps',
      trackingNumber: '9400111899223344556677',
    });

    const mails = (await drainedMails(t)).filter((m) => m.headers.to === 'xss@example.com');
    // The note, queued, the refund, printing, the cancel (with the rest of the money), and the other's shipping.
    expect(mails.map((m) => m.headers.subject)).toEqual([
      `[TEST ORDER] A message about order #${order.id}`,
      `[TEST ORDER] Order #${order.id} is queued for printing`,
      `[TEST ORDER] Refund for order #${order.id}: $1.00 USD`,
      `[TEST ORDER] Order #${order.id} is printing`,
      `[TEST ORDER] Order #${order.id} was cancelled`,
      `[TEST ORDER] Order #${shipped.id} has shipped`,
    ]);
    for (const mail of mails) {
      expect(mail.text).toContain(XSS);
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain(ESCAPED);
    }
  });
});
