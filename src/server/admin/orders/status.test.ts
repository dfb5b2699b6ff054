import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminOrderChanged } from '../../../shared/admin.ts';
import { trackingUrl } from '../../../shared/carriers.ts';
import { countRows, drainedMails } from '../../auth/testing.ts';
import { RefundRefusedError } from '../../checkout/payment-provider.ts';
import { type Customer, makeCustomer, uploadBox } from '../../checkout/testing.ts';
import { orderEvents, orderFlags, outbox, refunds } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { adminGet, adminPost, insertOrder, makeAdmin, orderRow, paidOrder, snapshot } from './testing.ts';

// POST /api/admin/orders/:id/status: the production steps, the customer's mails, the state machine's
// refusals (409, nothing changes), shipping's carrier and tracking number, blocking flags, admins racing
// each other, and a cancel that refunds (docs/security.md 21, promise 10).

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let ann: Customer;
let model: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  admin = await makeAdmin(t);
  ann = await makeCustomer(t);
  model = await uploadBox(t, ann, 20, 'bracket.stl');
});
afterAll(() => t.close());

let quantity = 0;
/** A fresh order of ann's, paid through the simulator (a new quantity, so no checkout session is reused). */
const newPaidOrder = () => paidOrder(t, ann, model, { quantity: ++quantity });

const move = (id: number, body: Record<string, unknown>) =>
  adminPost(t, `/api/admin/orders/${id}/status`, body, admin.cookie);

const mailsTo = async (orderId: number) =>
  (await drainedMails(t)).filter((m) => (m.headers.subject ?? '').includes(`#${orderId}`));

describe('moving an order through production', () => {
  it('goes paid -> queued -> printing -> shipped, mailing each step, shipped with the tracking link', async () => {
    const id = await newPaidOrder();
    const q = await move(id, { status: 'queued' });
    expect(q.statusCode, q.body).toBe(200);
    const queued = adminOrderChanged.parse(q.json()).order;
    expect(queued).toMatchObject({
      status: 'queued',
      nextStatus: 'printing',
      allowedStatuses: ['printing', 'cancelled'],
    });
    expect(queued.queuedAt).not.toBeNull();
    expect((await move(id, { status: 'printing' })).statusCode).toBe(200);
    const shipped = await move(id, {
      status: 'shipped',
      carrier: 'ups',
      trackingNumber: '1z 999-aa1 0123456784',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const url = trackingUrl('ups', '1Z999AA10123456784');
    expect(shipped.json().order).toMatchObject({
      status: 'shipped',
      carrier: 'ups',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: url,
      allowedStatuses: [],
      nextStatus: null,
    });

    const subjects = (await mailsTo(id)).map((m) => m.headers.subject);
    expect(subjects).toEqual(
      [
        expect.stringContaining('confirm'),
        `[TEST ORDER] Order #${id} is queued for printing`,
        `[TEST ORDER] Order #${id} is printing`,
        `[TEST ORDER] Order #${id} has shipped`,
      ].map((s, i) => (i === 0 ? expect.anything() : s)),
    );
    const shippedMail = (await mailsTo(id)).at(-1)!;
    expect(shippedMail.text).toContain(url!);
    expect(shippedMail.text).toContain('1Z999AA10123456784');

    // My Orders shows it shipped, with the carrier's tracking page.
    const mine = await t.app.inject({ url: '/api/get_orders.php', headers: { cookie: ann.cookie } });
    expect(mine.json().find((o: { id: number }) => o.id === id)).toMatchObject({
      status: 'shipped',
      tracking_number: '1Z999AA10123456784',
      tracking_url: url,
    });
    // Each move is one status event by this admin.
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(
      events
        .filter((e) => e.kind === 'status' && e.actor === 'admin')
        .map((e) => [e.fromStatus, e.toStatus, e.actorUserId]),
    ).toEqual([
      ['paid', 'queued', admin.user.id],
      ['queued', 'printing', admin.user.id],
      ['printing', 'shipped', admin.user.id],
    ]);
  });

  it('records the move but mails nobody when notify is false', async () => {
    const order = await insertOrder(t.database.db, ann.id);
    const mails = await countRows(t.database.db, outbox);
    const res = await move(order.id, { status: 'queued', notify: false, note: 'quiet one' });
    expect(res.statusCode).toBe(200);
    expect(await countRows(t.database.db, outbox)).toBe(mails);
    expect(res.json().order.timeline.at(-1)).toMatchObject({
      kind: 'status',
      toStatus: 'queued',
      text: 'quiet one',
    });
  });
});

describe('moves the rules refuse', () => {
  const ILLEGAL: [string, string][] = [
    ['pending', 'paid'],
    ['pending', 'queued'],
    ['pending', 'cancelled'],
    ['pending', 'shipped'],
    ['paid', 'printing'],
    ['paid', 'shipped'],
    ['paid', 'paid'],
    ['queued', 'shipped'],
    ['queued', 'paid'],
    ['printing', 'queued'],
    ['printing', 'paid'],
    ['shipped', 'printing'],
    ['shipped', 'cancelled'],
    ['cancelled', 'shipped'],
    ['cancelled', 'queued'],
    ['failed', 'paid'],
    ['paid', 'pending'],
    ['queued', 'failed'],
  ];

  it.each(ILLEGAL)('refuses %s -> %s with 409 and a sentence, and changes nothing', async (from, to) => {
    const order = await insertOrder(t.database.db, ann.id, { status: from });
    const before = await snapshot(t);
    const body =
      to === 'shipped'
        ? { status: to, carrier: 'usps', trackingNumber: '9400111899223344556677' }
        : { status: to };
    const res = await move(order.id, body);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatch(/^The order |^An order /);
    expect(await snapshot(t)).toEqual(before);
  });

  it('asks for the carrier and a tracking number of 6-40 letters and digits when shipping (400), changing nothing', async () => {
    const order = await insertOrder(t.database.db, ann.id, { status: 'printing' });
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'shipped', trackingNumber: '1Z999AA10123456784' }, 'Choose the carrier.'],
      [{ status: 'shipped', carrier: 'ups' }, 'Enter the tracking number.'],
      [
        { status: 'shipped', carrier: 'ups', trackingNumber: '12345' },
        'The tracking number must be 6 to 40 letters and digits.',
      ],
      [
        { status: 'shipped', carrier: 'ups', trackingNumber: '<img src=x onerror=alert(1)>' },
        'The tracking number must be 6 to 40 letters and digits.',
      ],
      [{ status: 'shipped', carrier: 'pigeon', trackingNumber: '1Z999AA10123456784' }, 'Choose the carrier.'],
      [{ status: 'teleported' }, expect.any(String) as unknown as string],
    ];
    for (const [body, error] of cases) {
      const res = await move(order.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(error);
    }
    expect(await snapshot(t)).toEqual(before);
    expect((await orderRow(t, order.id)).trackingNumber).toBeNull();
  });

  it('answers 404 for an order that does not exist or a malformed id', async () => {
    for (const id of ['999999', 'abc', '0', '-3', '1.5', '99999999999']) {
      const res = await adminPost(t, `/api/admin/orders/${id}/status`, { status: 'queued' }, admin.cookie);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Order not found.' });
    }
  });

  it('holds an order with an open blocking flag (409 naming it) but lets it be cancelled; resolved, it moves on', async () => {
    const order = await insertOrder(t.database.db, ann.id, { status: 'queued' });
    const [flag] = await t.database.db
      .insert(orderFlags)
      .values({
        orderId: order.id,
        kind: 'refunded_in_provider',
        details: 'refunded in Stripe',
        blocking: true,
      })
      .returning();
    const detail = await adminGet(t, `/api/admin/orders/${order.id}`, admin.cookie);
    expect(detail.json()).toMatchObject({ allowedStatuses: ['cancelled'], nextStatus: null });
    const before = await snapshot(t);
    const res = await move(order.id, { status: 'printing' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('Refunded in Stripe: do not ship');
    expect(await snapshot(t)).toEqual(before);

    const resolved = await adminPost(
      t,
      `/api/admin/orders/${order.id}/flags/${flag!.id}/resolve`,
      { note: 'Customer paid again by phone.' },
      admin.cookie,
    );
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().order).toMatchObject({
      allowedStatuses: ['printing', 'cancelled'],
      nextStatus: 'printing',
    });
    expect((await move(order.id, { status: 'printing' })).statusCode).toBe(200);

    // A blocked order can still be cancelled (and refunded).
    const held = await insertOrder(t.database.db, ann.id, { status: 'paid' });
    await t.database.db
      .insert(orderFlags)
      .values({ orderId: held.id, kind: 'disputed', details: 'chargeback', blocking: true });
    const cancelled = await move(held.id, { status: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().order).toMatchObject({ status: 'cancelled', amountRefundedCents: 1200 });
  });
});

describe('admins moving one order at once', () => {
  it('gives exactly one transition: one 200, the others 409, one status event and one mail', async () => {
    const order = await insertOrder(t.database.db, ann.id);
    const events = await countRows(t.database.db, orderEvents);
    const mails = await countRows(t.database.db, outbox);
    const other = await makeAdmin(t);
    const answers = await Promise.all([
      move(order.id, { status: 'queued' }),
      adminPost(t, `/api/admin/orders/${order.id}/status`, { status: 'queued' }, other.cookie),
      move(order.id, { status: 'queued' }),
    ]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const after = await orderRow(t, order.id);
    const statusEvents = (
      await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))
    ).filter((e) => e.kind === 'status');
    expect(statusEvents).toHaveLength(1);
    expect(statusEvents[0]!.toStatus).toBe(after.status);
    expect(after.status).toBe('queued');
    // The winner's status event and its mail (recorded as a 'mail' event): nothing from the losers.
    expect(await countRows(t.database.db, orderEvents)).toBe(events + 2);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
  });
});

describe('cancelling', () => {
  it('refunds a paid order in the same step and mails the customer once, naming the refund (simulator)', async () => {
    const id = await newPaidOrder();
    await drainedMails(t);
    const paid = await orderRow(t, id);
    const mails = await countRows(t.database.db, outbox);
    const res = await move(id, { status: 'cancelled', note: 'We cannot print this material.' });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().order;
    expect(order).toMatchObject({
      status: 'cancelled',
      cancelReason: 'We cannot print this material.',
      amountRefundedCents: paid.amountPaidCents,
      refundableCents: 0,
    });
    expect(order.refunds).toEqual([
      expect.objectContaining({
        amountCents: paid.amountPaidCents,
        status: 'succeeded',
        actor: 'admin',
        actorName: admin.user.username,
      }),
    ]);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
    const [mail] = (await mailsTo(id)).slice(-1);
    expect(mail!.headers.subject).toBe(`[TEST ORDER] Order #${id} was cancelled`);
    expect(mail!.text).toContain('We cannot print this material.');
    expect(mail!.text).toMatch(/We refunded \$[\d,]+\.\d\d USD to your card/);
    expect(order.timeline.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(['status', 'refund', 'mail']),
    );
  });

  it('mails the cancel alone when nothing is left to refund, and not at all with notify false', async () => {
    const paid = await insertOrder(t.database.db, ann.id, { status: 'queued' });
    const unpaid = await insertOrder(t.database.db, ann.id, {
      status: 'queued',
      amountPaidCents: null,
      paymentIntentId: null,
    });
    const refundRows = await countRows(t.database.db, refunds);
    const mails = await countRows(t.database.db, outbox);
    expect((await move(unpaid.id, { status: 'cancelled' })).statusCode).toBe(200);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
    expect(await countRows(t.database.db, refunds)).toBe(refundRows);

    const quiet = await move(paid.id, { status: 'cancelled', notify: false });
    expect(quiet.statusCode).toBe(200);
    expect(quiet.json().order.refunds).toEqual([
      expect.objectContaining({ amountCents: 1200, status: 'succeeded' }),
    ]);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
  });

  it('answers 502 when the provider refuses the refund: the order stays cancelled, the refund failed, the customer told', async () => {
    const order = await insertOrder(t.database.db, ann.id, { status: 'printing' });
    const spy = vi
      .spyOn(t.app.payments.provider, 'refund')
      .mockRejectedValueOnce(new RefundRefusedError('The charge is disputed.'));
    const mails = await countRows(t.database.db, outbox);
    const res = await move(order.id, { status: 'cancelled' });
    spy.mockRestore();
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe(
      'The order is cancelled, but the refund was not made. The payment service refused the refund: The charge is disputed.',
    );
    const detail = (await adminGet(t, `/api/admin/orders/${order.id}`, admin.cookie)).json();
    expect(detail).toMatchObject({ status: 'cancelled', amountRefundedCents: 0, refundableCents: 1200 });
    expect(detail.refunds).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(await countRows(t.database.db, outbox)).toBe(mails + 1);
  });
});
