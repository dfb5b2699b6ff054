import { and, asc, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { orders } from '../db/schema.ts';
import { type FulfilDeps, fulfilCheckout, markChecked } from './fulfil.ts';

// A webhook can be lost (the shop was down, a proxy dropped it). Every few minutes this job asks the
// provider about each pending order older than 10 minutes, through the same fulfilment, so a paid session
// becomes a paid order even if no event ever arrives (docs/security.md promise 1), and an abandoned one is
// cancelled once its session expires.

export const RECONCILE_AFTER_MS = 10 * 60_000;
export const RECONCILE_EVERY_MS = 5 * 60_000;
const BATCH = 100;

export type ReconcileResult = { checked: number; changed: number; failed: number };

export async function reconcilePendingOrders(
  deps: FulfilDeps,
  log: FastifyBaseLogger,
): Promise<ReconcileResult> {
  const { db } = deps.ctx;
  const now = deps.ctx.now();
  const before = new Date(now.getTime() - RECONCILE_AFTER_MS);
  const due = await db
    .select({ id: orders.id, sessionId: orders.paymentSessionId })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        isNotNull(orders.paymentSessionId),
        // A flagged order waits for staff; asking again would change nothing.
        isNull(orders.flag),
        lt(orders.createdAt, before),
        or(isNull(orders.paymentCheckedAt), lt(orders.paymentCheckedAt, before)),
      ),
    )
    .orderBy(asc(orders.paymentCheckedAt), asc(orders.id))
    .limit(BATCH);
  const result: ReconcileResult = { checked: 0, changed: 0, failed: 0 };
  for (const order of due) {
    if (!order.sessionId) continue;
    await markChecked(db, order.id, now);
    result.checked++;
    try {
      const r = await fulfilCheckout(deps, order.sessionId, { actor: 'reconcile' });
      if (r.changed) {
        result.changed++;
        log.info(
          { orderId: order.id, status: r.status },
          'reconciled a pending order with its payment session',
        );
      }
    } catch (err) {
      result.failed++;
      log.warn({ err, orderId: order.id }, 'could not reconcile a pending order; will ask again');
    }
  }
  return result;
}

/** Runs the reconcile every `intervalMs`, never two runs at once; unref'd timers. */
export function startReconcileJob(deps: FulfilDeps, log: FastifyBaseLogger, intervalMs = RECONCILE_EVERY_MS) {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await reconcilePendingOrders(deps, log);
    } catch (err) {
      log.error({ err }, 'payment reconcile failed');
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
