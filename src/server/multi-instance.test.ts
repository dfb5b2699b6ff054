import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from './auth/session-service.ts';
import { RECONCILE_AFTER_MS, reconcilePendingOrders } from './checkout/reconcile.ts';
import { signedEvent } from './checkout/testing/stripe-fake.ts';
import { cartItem } from './checkout/testing.ts';
import { WEBHOOK_PATH } from './checkout/webhook-route.ts';
import { models, orderEvents, orders, outbox, paymentEvents, users } from './db/schema.ts';
import { linkIn, type ParsedMail } from './mail/testing.ts';
import { boxStl, filesIn, multipartBody } from './models/testing.ts';
import { TEST_ORIGIN } from './testing/test-app.ts';
import {
  call,
  type Deployment,
  type Instance,
  needsPostgresAndRedis,
  startDeployment,
  until,
  WEBHOOK_SECRET,
} from './testing/two-instances.ts';

// Issue #28: two app instances on one PostgreSQL, one Redis, one S3 bucket and one SMTP server, each on
// its own port, both outbox workers polling. Requests go over real sockets; the Stripe webhook arrives
// over HTTP at the instance that did not create the checkout; every mail is counted at the SMTP server.

let d: Deployment;
let serial = 0;

type Person = { id: number; email: string; cookie: string };

/** A verified account (admin if asked) with a live session, valid on both instances. */
async function person(options: { admin?: boolean } = {}): Promise<Person> {
  serial++;
  const tag = `${process.pid}_${serial}`;
  const db = d.a.database.db;
  const [user] = await db
    .insert(users)
    .values({
      username: `two${tag}`,
      email: `two${tag}@example.com`,
      passwordHash: 'not-a-password-hash',
      isAdmin: options.admin ?? false,
      emailVerifiedAt: d.now(),
    })
    .returning();
  const session = await createSession({ db, now: d.now }, user!.id);
  return { id: user!.id, email: user!.email, cookie: `session=${session.token}` };
}

/** Uploads a box of `size` mm to an instance; answers the model id and the response. */
async function upload(instance: Instance, size: number, cookie?: string) {
  const body = multipartBody([{ fileName: `box${size}.stl`, bytes: boxStl(size, size, size) }]);
  const res = await call(instance, 'POST', '/api/uploads', {
    body: body.payload,
    contentType: body.contentType,
    ...(cookie ? { cookie } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.json<{ id: string }>().id, res };
}

/** Starts a checkout of one model on an instance; answers the Stripe session id. */
async function checkout(instance: Instance, customer: Person, modelId: string): Promise<string> {
  const res = await call(instance, 'POST', '/api/create-checkout-session.php', {
    json: { cartItems: [cartItem(modelId)] },
    cookie: customer.cookie,
  });
  expect(res.status, res.text).toBe(200);
  return res.json<{ id: string }>().id;
}

/** Posts a signed event to an instance's webhook, as Stripe does (no cookie, the raw body signed). */
function deliver(instance: Instance, event: { payload: string; signature: string }) {
  return call(instance, 'POST', WEBHOOK_PATH, {
    body: event.payload,
    contentType: 'application/json; charset=utf-8',
    headers: { 'stripe-signature': event.signature },
  });
}

const paidEvent = (sessionId: string) =>
  signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', d.fake.sessions.get(sessionId));

async function orderOf(sessionId: string) {
  const [order] = await d.b.database.db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  return order!;
}

async function statusEvents(orderId: number) {
  return d.a.database.db
    .select({ to: orderEvents.toStatus, actor: orderEvents.actor })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'status')))
    .orderBy(asc(orderEvents.id));
}

/** A customer's order, created on A and paid by a webhook at B. */
async function paidOrder(customer: Person, size: number): Promise<number> {
  const model = await upload(d.a, size, customer.cookie);
  const sessionId = await checkout(d.a, customer, model.id);
  d.fake.pay(sessionId);
  expect((await deliver(d.b, paidEvent(sessionId))).status).toBe(200);
  const order = await orderOf(sessionId);
  expect(order.status).toBe('paid');
  return order.id;
}

/** The mails the SMTP server received for `to` whose subject contains `subject`. */
const mailsAt = (to: string, subject: string): ParsedMail[] =>
  d.smtp.messages.filter((m) => m.headers.to === to && (m.headers.subject ?? '').includes(subject));

async function outboxCount(status: 'pending' | 'sent' | 'dead'): Promise<number> {
  const [row] = await d.a.database.db.select({ n: count() }).from(outbox).where(eq(outbox.status, status));
  return row!.n;
}

/**
 * Waits until no mail is left to send, then a while longer (both workers poll every second), so a mail
 * either worker sent twice would have arrived; then every mail the outbox sent arrived exactly once.
 */
async function expectEachMailOnce() {
  await until('the outbox to be sent', async () => (await outboxCount('pending')) === 0);
  await new Promise((r) => setTimeout(r, 1500));
  const got = d.smtp.messages.map((m) => `${m.headers.to} | ${m.headers.subject}`);
  expect(new Set(got).size).toBe(got.length);
  expect(got).toHaveLength(await outboxCount('sent'));
  expect(d.a.sent.length + d.b.sent.length).toBe(got.length);
  expect(await outboxCount('dead')).toBe(0);
}

/** A logger that keeps which orders this instance's reconcile settled. */
function reconcileLog() {
  const settled: number[] = [];
  const log = {
    info: (obj: { orderId?: number }) => {
      if (typeof obj?.orderId === 'number') settled.push(obj.orderId);
    },
    warn: () => {},
    error: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, settled };
}

// Real sockets and a second of polling per mail check: slower than an inject() test on a busy machine.
const suite = { ...needsPostgresAndRedis, timeout: 60_000 };

describe('two app instances on one PostgreSQL, Redis, S3 bucket and SMTP server', suite, () => {
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('serves an upload made on A from B: the model, its file, its preview and its view, from the bucket', async () => {
    const bytes = boxStl(20, 20, 20);
    const { id, res } = await upload(d.a, 20);
    const visitor = res.cookies.get('visitor');
    expect(visitor).toBeDefined();

    // Stored in the bucket, on neither instance's disk.
    const [row] = await d.a.database.db.select().from(models).where(eq(models.id, id));
    const keys = [row!.storageKey, row!.previewKey, row!.viewKey];
    expect(keys.every(Boolean)).toBe(true);
    for (const key of keys) {
      await d.s3.send(new HeadObjectCommand({ Bucket: d.bucket, Key: `${d.prefix}${key}` }));
    }
    expect(filesIn(path.join(d.a.dataDir, 'files'))).toEqual([]);
    expect(filesIn(path.join(d.b.dataDir, 'files'))).toEqual([]);

    const listed = await call(d.b, 'GET', '/api/models', { cookie: visitor! });
    expect(listed.json<{ models: { id: string }[] }>().models.map((m) => m.id)).toEqual([id]);
    const model = await call(d.b, 'GET', `/api/models/${id}`, { cookie: visitor! });
    expect(model.status).toBe(200);
    expect(model.json()).toMatchObject({ id, fileName: 'box20.stl' });
    const file = await call(d.b, 'GET', `/api/models/${id}/file`, { cookie: visitor! });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.bytes, Buffer.from(bytes))).toBe(0);
    const preview = await call(d.b, 'GET', `/api/models/${id}/preview.png`, { cookie: visitor! });
    expect(preview.status).toBe(200);
    expect(preview.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const view = await call(d.b, 'GET', `/api/models/${id}/view.glb`, { cookie: visitor! });
    expect(view.status).toBe(200);
    expect(view.bytes.subarray(0, 4).toString('latin1')).toBe('glTF');
    // B still checks who asks: another browser gets nothing.
    expect((await call(d.b, 'GET', `/api/models/${id}/file`)).status).toBe(404);
  });

  it('pays a checkout created on A by a webhook arriving at B, once, though Stripe retries it at both', async () => {
    const customer = await person();
    const model = await upload(d.a, 21, customer.cookie);
    const sessionId = await checkout(d.a, customer, model.id);
    expect((await orderOf(sessionId)).status).toBe('pending');
    d.fake.pay(sessionId);
    const event = paidEvent(sessionId);

    const first = await deliver(d.b, event);
    expect(first.status, first.text).toBe(200);
    const order = await orderOf(sessionId);
    expect(order.status).toBe('paid');
    // The same event again, at both instances at once (Stripe retries; a load balancer spreads them).
    const retries = await Promise.all([deliver(d.a, event), deliver(d.b, event)]);
    expect(retries.map((r) => r.status)).toEqual([200, 200]);

    expect(await statusEvents(order.id)).toEqual([
      { to: 'pending', actor: 'customer' },
      { to: 'paid', actor: 'webhook' },
    ]);
    const stored = await d.a.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
    expect(stored).toHaveLength(1);
    const status = await call(d.a, 'GET', `/api/checkout/status?session_id=${sessionId}`, {
      cookie: customer.cookie,
    });
    expect(status.json()).toMatchObject({ orderId: order.id, status: 'paid' });

    await expectEachMailOnce();
    expect(mailsAt(customer.email, `Order #${order.id} confirmed`)).toHaveLength(1);
  });

  it("shows an admin's status change on A at once to B's admin and to the customer's My Orders on B", async () => {
    const customer = await person();
    const admin = await person({ admin: true });
    const other = await person({ admin: true });
    const id = await paidOrder(customer, 22);

    const seenOnB = async () => {
      const detail = await call(d.b, 'GET', `/api/admin/orders/${id}`, { cookie: admin.cookie });
      expect(detail.status).toBe(200);
      const mine = await call(d.b, 'GET', '/api/get_orders.php', { cookie: customer.cookie });
      const row = mine.json<{ id: number; status: string }[]>().find((o) => o.id === id);
      return { admin: detail.json<{ status: string }>().status, customer: row?.status };
    };
    const move = (instance: Instance, cookie: string, body: Record<string, unknown>) =>
      call(instance, 'POST', `/api/admin/orders/${id}/status`, { json: body, cookie });

    for (const status of ['queued', 'printing']) {
      const res = await move(d.a, admin.cookie, { status });
      expect(res.status, res.text).toBe(200);
      expect(await seenOnB()).toEqual({ admin: status, customer: status });
    }
    // Two admins ship it at the same moment, one on each instance: one move, the other a 409.
    const shipped = { status: 'shipped', carrier: 'ups', trackingNumber: '1Z999AA10123456784' };
    const answers = await Promise.all([move(d.a, admin.cookie, shipped), move(d.b, other.cookie, shipped)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expect(loser.json().error).toMatch(/^The order is already /);
    expect(await seenOnB()).toEqual({ admin: 'shipped', customer: 'shipped' });
    expect((await statusEvents(id)).map((e) => e.to)).toEqual([
      'pending',
      'paid',
      'queued',
      'printing',
      'shipped',
    ]);

    await expectEachMailOnce();
    for (const subject of ['is queued for printing', 'is printing', 'has shipped']) {
      expect(mailsAt(customer.email, `Order #${id} ${subject}`), subject).toHaveLength(1);
    }
  });

  it('sends registration, verification, password reset and contact mails once, each step on either instance', async () => {
    const username = `reg${process.pid}`;
    const email = `${username}@example.com`;
    const register = await call(d.a, 'POST', '/api/register.php', {
      json: { username, email, password: 'first-password' },
    });
    expect(register.status, register.text).toBe(201);
    await until('the verification mail', () => mailsAt(email, 'Verify your email').length > 0);
    const link = linkIn(mailsAt(email, 'Verify your email')[0]!, `${TEST_ORIGIN}/api/verify-email?token=`);
    const verified = await call(d.b, 'GET', link.slice(TEST_ORIGIN.length));
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/login?verified=1');

    const login = await call(d.b, 'POST', '/api/login.php', {
      json: { username, password: 'first-password' },
    });
    expect(login.status, login.text).toBe(200);
    const session = login.cookies.get('session');
    const onA = await call(d.a, 'GET', '/api/check_session.php', { cookie: session! });
    expect(onA.json()).toMatchObject({ loggedIn: true, username });

    const forgot = await call(d.b, 'POST', '/api/request_password_reset.php', { json: { email } });
    expect(forgot.status).toBe(200);
    await until('the reset mail', () => mailsAt(email, 'Reset your password').length > 0);
    const token = linkIn(
      mailsAt(email, 'Reset your password')[0]!,
      `${TEST_ORIGIN}/reset-password?token=`,
    ).split('token=')[1]!;
    const body = { token, password: 'second-password', confirmPassword: 'second-password' };
    expect((await call(d.a, 'POST', '/api/reset_password.php', { json: body })).status).toBe(200);
    // Used up on A means used up on B.
    const again = await call(d.b, 'POST', '/api/reset_password.php', {
      json: { ...body, password: 'third-password', confirmPassword: 'third-password' },
    });
    expect(again.status).toBe(400);
    expect(again.json()).toEqual({
      error: 'Failed to reset password. The token might be invalid or expired.',
    });
    const relogin = (password: string) =>
      call(d.b, 'POST', '/api/login.php', { json: { username, password } });
    expect((await relogin('first-password')).status).toBe(401);
    expect((await relogin('third-password')).status).toBe(401);
    expect((await relogin('second-password')).status).toBe(200);

    const name = `Two ${process.pid}`;
    const contact = await call(d.b, 'POST', '/api/send_contact_email.php', {
      json: { name, email, message: 'Hello from B' },
    });
    expect(contact.status).toBe(200);

    await expectEachMailOnce();
    expect(mailsAt(email, 'Verify your email')).toHaveLength(1);
    expect(mailsAt(email, 'Reset your password')).toHaveLength(1);
    expect(mailsAt(email, 'Your password was changed')).toHaveLength(1);
    expect(mailsAt('shop@localhost', `Contact form: ${name}`)).toHaveLength(1);
  });

  it('settles orders whose webhooks were lost with the reconcile job on A and B at once: each once, half each', async () => {
    const customers = await Promise.all([person(), person(), person(), person()]);
    const sessions: string[] = [];
    for (const [i, customer] of customers.entries()) {
      const instance = i % 2 === 0 ? d.a : d.b;
      const model = await upload(instance, 30 + i, customer.cookie);
      const sessionId = await checkout(instance, customer, model.id);
      d.fake.pay(sessionId);
      sessions.push(sessionId);
    }
    const ids = await Promise.all(sessions.map(async (s) => (await orderOf(s)).id));
    // No webhook ever came; the orders are old enough for the job to ask Stripe.
    d.advance(RECONCILE_AFTER_MS + 60_000);
    const asked = d.fake.requests.length;

    // Each run takes at most half: both must run for every order to be settled in this one round.
    const [logA, logB] = [reconcileLog(), reconcileLog()];
    const [ra, rb] = await Promise.all([
      reconcilePendingOrders(d.a.app.payments, logA.log, 2),
      reconcilePendingOrders(d.b.app.payments, logB.log, 2),
    ]);
    const share = { checked: 2, changed: 2, failed: 0, refundsSettled: 0 };
    expect(ra).toEqual(share);
    expect(rb).toEqual(share);
    // Both instances settled two orders, different ones, all four in all.
    expect(logA.settled).toHaveLength(2);
    expect(logB.settled).toHaveLength(2);
    expect([...logA.settled, ...logB.settled].sort()).toEqual([...ids].sort());
    // Stripe was asked about each session exactly once.
    const retrieved = d.fake.requests
      .slice(asked)
      .filter((r) => r.method === 'GET' && r.path.startsWith('/v1/checkout/sessions/'))
      .map((r) => r.path.split('/').at(-1));
    expect(retrieved.sort()).toEqual([...sessions].sort());

    for (const id of ids) {
      expect(await statusEvents(id)).toEqual([
        { to: 'pending', actor: 'customer' },
        { to: 'paid', actor: 'reconcile' },
      ]);
    }
    // Nothing is left for either.
    const again = await Promise.all([
      reconcilePendingOrders(d.a.app.payments, logA.log),
      reconcilePendingOrders(d.b.app.payments, logB.log),
    ]);
    expect(again.map((r) => r.checked)).toEqual([0, 0]);

    await expectEachMailOnce();
    for (const [i, customer] of customers.entries()) {
      expect(mailsAt(customer.email, `Order #${ids[i]} confirmed`)).toHaveLength(1);
    }
  });
});
