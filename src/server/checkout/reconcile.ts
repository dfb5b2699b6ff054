import { and, asc, eq, isNotNull, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { orderFlags, orders } from '../db/schema.ts';
import { retryPendingRefunds } from '../orders/refunds.ts';
import { type FulfilDeps, fulfilCheckout } from './fulfil.ts';

// A webhook can be lost (the shop was down, a proxy dropped it). Every few minutes this job asks the
// provider about pending orders older than 10 minutes, through the same fulfilment, so a paid session
// becomes a paid order even if no event ever arrives (docs/security.md promise 1), and an abandoned one is
// cancelled once its session expires: every order ends.
// - Never asked comes first (NULLs first), then the longest due, so hundreds of open checkouts cannot
//   starve the one whose webhook was lost.
// - Each order backs off: asked again after 2, 5, 10, 30 minutes, then hourly.
// - Rows are claimed with FOR UPDATE SKIP LOCKED and their next time moved on in the same statement, so
//   several instances share the work and never ask about one order twice.

export const RECONCILE_AFTER_MS = 10 * 60_000;
export const RECONCILE_EVERY_MS = 5 * 60_000;
/** Minutes until the next question, by how many were asked before; then hourly. */
export const BACKOFF_MINUTES = [2, 5, 10, 30] as const;
const BATCH = 100;

export function nextCheckDelayMs(checksBefore: number): number {
  return (BACKOFF_MINUTES[checksBefore] ?? 60) * 60_000;
}

export type ReconcileResult = { checked: number; changed: number; failed: number; refundsSettled: number };

/** Claims up to `limit` due pending orders for this instance and sets when each is asked next. */
async function claimDue(deps: FulfilDeps, limit: number): Promise<{ id: number; sessionId: string }[]> {
  const { db } = deps.ctx;
  const now = deps.ctx.now();
  const createdBefore = new Date(now.getTime() - RECONCILE_AFTER_MS);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: orders.id, sessionId: orders.paymentSessionId, checks: orders.paymentChecks })
      .from(orders)
      .where(
        and(
          eq(orders.status, 'pending'),
          isNotNull(orders.paymentSessionId),
          lt(orders.createdAt, createdBefore),
          or(isNull(orders.paymentNextCheckAt), lte(orders.paymentNextCheckAt, now)),
          // A flagged order waits for staff; asking again would change nothing.
          notExists(
            tx
              .select({ id: orderFlags.id })
              .from(orderFlags)
              .where(and(eq(orderFlags.orderId, orders.id), isNull(orderFlags.resolvedAt))),
          ),
        ),
      )
      .orderBy(sql`${orders.paymentNextCheckAt} asc nulls first`, asc(orders.id))
      .limit(limit)
      .for('update', { skipLocked: true, of: orders });
    for (const o of due) {
      await tx
        .update(orders)
        .set({
          paymentCheckedAt: now,
          paymentChecks: o.checks + 1,
          paymentNextCheckAt: new Date(now.getTime() + nextCheckDelayMs(o.checks)),
        })
        .where(eq(orders.id, o.id));
    }
    return due.flatMap((o) => (o.sessionId ? [{ id: o.id, sessionId: o.sessionId }] : []));
  });
}

export async function reconcilePendingOrders(
  deps: FulfilDeps,
  log: FastifyBaseLogger,
  limit = BATCH,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, changed: 0, failed: 0, refundsSettled: 0 };
  for (const order of await claimDue(deps, limit)) {
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
  try {
    result.refundsSettled = await retryPendingRefunds({ ...deps, log });
  } catch (err) {
    log.warn({ err }, 'could not settle pending refunds; will ask again');
  }
  return result;
}

/** Runs the reconcile every `intervalMs`, never two runs at once in this process; unref'd timers. */
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
