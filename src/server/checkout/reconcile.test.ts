import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../auth/testing.ts';
import { orders, simulatorSessions } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import type { FulfilDeps } from './fulfil.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { newSimulatorSessionId } from './providers/simulator.ts';
import {
  BACKOFF_MINUTES,
  nextCheckDelayMs,
  RECONCILE_AFTER_MS,
  reconcilePendingOrders,
} from './reconcile.ts';
import type { StripeFake } from './testing/stripe-fake.ts';
import {
  ADDRESS,
  cartItem,
  makeCustomer,
  orderOfSession,
  type StripeShop,
  startCheckout,
  startStripeShop,
  uploadBox,
} from './testing.ts';

// The backstop (issue #23 §4): the reconcile job never starves the order whose webhook was lost, backs off
// per order, shares the work between instances without asking about one order twice, and ends every order.

const silentLog = { info() {}, warn() {}, error() {} } as never;

/** The app's payment deps with a provider that counts the sessions it is asked about. */
function counting(deps: FulfilDeps): { deps: FulfilDeps; asked: string[] } {
  const asked: string[] = [];
  const provider: PaymentProvider = Object.create(deps.provider);
  provider.retrieveSession = (id: string) => {
    asked.push(id);
    return deps.provider.retrieveSession(id);
  };
  return { deps: { ...deps, provider }, asked };
}

describe('backoff', () => {
  it('asks again after 2, 5, 10 and 30 minutes, then hourly', () => {
    expect(BACKOFF_MINUTES).toEqual([2, 5, 10, 30]);
    expect([0, 1, 2, 3, 4, 20].map((n) => nextCheckDelayMs(n) / 60_000)).toEqual([2, 5, 10, 30, 60, 60]);
  });
});

describe('the reconcile job with 300 open checkouts', () => {
  let t: TestApp;
  let lost: string;
  const ids: number[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    const db = t.database.db;
    const { user } = await createUser(db);
    const created = new Date(Date.now() - RECONCILE_AFTER_MS - 60_000);
    // 299 abandoned checkouts asked before and due again, and, made last, the one whose webhook was lost:
    // paid, never asked. With NULLs sorted last it was never reached.
    for (let i = 0; i < 300; i++) {
      const sessionId = newSimulatorSessionId();
      const neverAsked = i === 299;
      const [order] = await db
        .insert(orders)
        .values({
          userId: user.id,
          status: 'pending',
          totalCents: 1200,
          subtotalCents: 1200,
          paymentProvider: 'simulator',
          paymentSessionId: sessionId,
          paymentChecks: neverAsked ? 0 : 1,
          paymentNextCheckAt: neverAsked ? null : new Date(created.getTime() + 1000),
          createdAt: created,
        })
        .returning({ id: orders.id });
      ids.push(order!.id);
      await db.insert(simulatorSessions).values({
        id: sessionId,
        orderId: order!.id,
        amountTotalCents: 1200,
        currency: 'usd',
        lines: [],
        successUrl: 'http://shop.test/s',
        cancelUrl: 'http://shop.test/c',
        expiresAt: new Date(Date.now() + 3600_000),
        ...(neverAsked
          ? { status: 'complete', paymentStatus: 'paid', shipping: ADDRESS, paymentIntentId: 'pi_sim_lost' }
          : {}),
      });
      if (neverAsked) lost = sessionId;
    }
  }, 120_000);
  afterAll(() => t.close());

  it('asks the never-asked order first, and two instances share the work without asking about one order twice', async () => {
    const a = counting(t.app.payments);
    const b = counting(t.app.payments);
    const [ra, rb] = await Promise.all([
      reconcilePendingOrders(a.deps, silentLog, 100),
      reconcilePendingOrders(b.deps, silentLog, 100),
    ]);
    expect(ra.failed + rb.failed).toBe(0);
    const asked = [...a.asked, ...b.asked];
    expect(asked).toHaveLength(200);
    expect(new Set(asked).size).toBe(200);
    // The lost payment was in the first batch, whichever instance took it.
    expect(asked).toContain(lost);
    expect((await orderOfSession(t, lost))!.status).toBe('paid');
    // Each asked order waits 2 minutes more (its second question): the next run takes the other 100.
    const c = counting(t.app.payments);
    const rc = await reconcilePendingOrders(c.deps, silentLog, 1000);
    expect(rc.checked).toBe(100);
    expect(new Set([...asked, ...c.asked]).size).toBe(300);
    // Nothing is due now: a run asks nothing.
    const d = counting(t.app.payments);
    expect((await reconcilePendingOrders(d.deps, silentLog, 1000)).checked).toBe(0);
    const rows = await t.database.db
      .select()
      .from(orders)
      .where(inArray(orders.id, ids.slice(0, 299)));
    expect(new Set(rows.map((o) => o.paymentChecks))).toEqual(new Set([2]));
    for (const o of rows) {
      // Asked a second time: 5 minutes until the third.
      expect(o.paymentNextCheckAt!.getTime() - o.paymentCheckedAt!.getTime()).toBe(5 * 60_000);
    }
  });
});

describe('every order ends', () => {
  let shop: StripeShop;
  let fake: StripeFake;
  let t: TestApp;
  beforeAll(async () => {
    shop = await startStripeShop();
    ({ fake, t } = shop);
  });
  afterAll(() => shop.close());

  it('fails a complete, unpaid session whose PaymentIntent failed, though no event ever said so', async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 30, 'async.stl');
    const id = (await startCheckout(t, customer, [cartItem(model)])).json().id as string;
    const pi = 'pi_async_failed';
    Object.assign(fake.sessions.get(id)!, {
      status: 'complete',
      payment_status: 'unpaid',
      payment_intent: pi,
    });
    fake.intentStatus.set(pi, 'processing');
    t.advance(RECONCILE_AFTER_MS + 60_000);
    try {
      await reconcilePendingOrders(t.app.payments, silentLog);
      expect((await orderOfSession(t, id))!.status).toBe('pending');
      // The bank debit failed: the PaymentIntent wants another payment method.
      fake.intentStatus.set(pi, 'requires_payment_method');
      t.advance(2 * 60_000);
      await reconcilePendingOrders(t.app.payments, silentLog);
      const order = (await orderOfSession(t, id))!;
      expect(order.status).toBe('failed');
      expect(order.paymentChecks).toBe(2);
    } finally {
      t.advance(-(RECONCILE_AFTER_MS + 3 * 60_000));
    }
  });

  it('cancels an expired session and leaves an order without a session alone', async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 31, 'gone.stl');
    const id = (await startCheckout(t, customer, [cartItem(model)])).json().id as string;
    fake.sessions.get(id)!.status = 'expired';
    t.advance(RECONCILE_AFTER_MS + 60_000);
    try {
      await reconcilePendingOrders(t.app.payments, silentLog);
      expect((await orderOfSession(t, id))!.status).toBe('cancelled');
    } finally {
      t.advance(-(RECONCILE_AFTER_MS + 60_000));
    }
    const [row] = await t.database.db.select().from(orders).where(eq(orders.paymentSessionId, id));
    expect(row!.cancelReason).toBeNull();
  });
});
