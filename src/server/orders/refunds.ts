import { and, asc, eq, inArray, lt, or, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCents } from '../../shared/format.ts';
import type { InstallId } from '../checkout/install-id.ts';
import {
  type PaymentProvider,
  type ProviderRefund,
  RefundRefusedError,
} from '../checkout/payment-provider.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { type Order, orderEvents, orders, type Refund, refunds, users } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { raiseFlag } from './flags.ts';
import { queueOrderMail, refundMail, statusMail } from './order-mails.ts';
import { lockOrder } from './state-machine.ts';

// Refunds (docs/domain.md "Refunds"): every refund is a row, made through the payment provider (Stripe's
// refunds API with an idempotency key; the simulator answers at once) or reported by it (a refund made in
// Stripe's dashboard). `orders.amount_refunded_cents` is the sum of the succeeded ones, rewritten in the same
// transaction as any of them changes, so it can never disagree with the rows nor exceed what was paid.
//
// Staff's refund is two steps around the provider's call, never holding a row lock across the network:
// startRefund writes it `pending` (what is left to refund already counts it, so two clicks cannot send the
// money twice), settleRefund asks the provider and writes the answer. A refund the provider did not answer
// stays pending and is asked again, with the same key, by the reconcile job.

export type RefundDeps = {
  ctx: AppContext;
  provider: PaymentProvider;
  installId: InstallId;
  log?: FastifyBaseLogger;
};

export const REFUND_MSG = {
  notPaid: 'Nothing was paid for this order: there is nothing to refund.',
  nothingLeft: 'This order has been refunded in full already.',
  tooMuch: (left: number, currency: string) =>
    `The refund is more than what is left to refund (${formatCents(left, currency)}).`,
  reason: 'Say why: a partial refund needs a reason.',
  noItem: 'That item is not part of this order.',
  refused: (why: string) => `The payment service refused the refund: ${why}`,
  noAnswer:
    'The payment service did not answer. The refund is recorded as pending and will be confirmed (or retried) automatically.',
} as const;

/** Paid, less refunds that succeeded or are under way: what a new refund may still send back. */
export async function refundableCents(tx: Db, order: Order): Promise<number> {
  if (order.amountPaidCents === null) return 0;
  const [row] = await tx
    .select({ total: sum(refunds.amountCents) })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), inArray(refunds.status, ['pending', 'succeeded'])));
  return Math.max(0, order.amountPaidCents - Number(row?.total ?? 0));
}

/** Rewrites the order's refunded sum from its succeeded refunds; answers it. */
async function syncRefunded(tx: Db, order: Order, now: Date): Promise<number> {
  const [row] = await tx
    .select({ total: sum(refunds.amountCents) })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), eq(refunds.status, 'succeeded')));
  const refunded = Math.min(order.amountPaidCents ?? 0, Number(row?.total ?? 0));
  if (refunded !== order.amountRefundedCents) {
    await tx
      .update(orders)
      .set({ amountRefundedCents: refunded, updatedAt: now })
      .where(eq(orders.id, order.id));
  }
  return refunded;
}

export type RefundAsk = {
  /** Without an amount: all that is left. */
  amountCents?: number | undefined;
  reason: string;
  itemId?: number | undefined;
  actorUserId: number | null;
};

/**
 * Writes a pending refund on a locked order, or throws a 400 with what is wrong (nothing is written then).
 * The caller settles it with settleRefund after its transaction commits.
 */
export async function startRefund(tx: Db, order: Order, ask: RefundAsk, now: Date): Promise<Refund> {
  if (order.amountPaidCents === null || !order.paymentIntentId) throw new HttpError(400, REFUND_MSG.notPaid);
  const left = await refundableCents(tx, order);
  if (left === 0) throw new HttpError(400, REFUND_MSG.nothingLeft);
  const amount = ask.amountCents ?? left;
  if (amount > left) throw new HttpError(400, REFUND_MSG.tooMuch(left, order.currency));
  if (amount < left && ask.reason.trim() === '') throw new HttpError(400, REFUND_MSG.reason);
  const [refund] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      orderItemId: ask.itemId ?? null,
      provider: order.paymentProvider ?? 'stripe',
      amountCents: amount,
      currency: order.currency,
      status: 'pending',
      reason: ask.reason.trim(),
      actor: 'admin',
      actorUserId: ask.actorUserId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!refund) throw new Error('refund insert returned no row');
  return refund;
}

/** What to tell the customer once the refund is settled. */
export type RefundNotice =
  | { kind: 'refund'; notify: boolean }
  /** The refund of a cancel: the cancel mail names it (one mail, not two). */
  | { kind: 'cancel'; notify: boolean; reason: string | null };

export type Settled = { refund: Refund; outcome: 'succeeded' | 'pending' | 'failed'; error?: string };

/** Asks the provider for a pending refund (same key every time) and writes its answer. */
export async function settleRefund(deps: RefundDeps, refund: Refund, notice: RefundNotice): Promise<Settled> {
  const { ctx, provider } = deps;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, refund.orderId));
  if (!order?.paymentIntentId) throw new Error(`refund ${refund.id}: its order has no payment`);
  const key = `${await deps.installId()}:refund:${refund.id}`;
  let answer: ProviderRefund | { error: string; final: boolean };
  try {
    answer = await provider.refund({
      paymentIntentId: order.paymentIntentId,
      amountCents: refund.amountCents,
      currency: refund.currency,
      idempotencyKey: key,
      metadata: { orderId: String(order.id), refundId: String(refund.id) },
    });
  } catch (err) {
    deps.log?.warn(
      { err, orderId: order.id, refundId: refund.id },
      'refund not made by the payment provider',
    );
    answer = { error: (err as Error).message, final: err instanceof RefundRefusedError };
  }
  const settled = await ctx.db.transaction(async (tx): Promise<Settled> => {
    const locked = await lockOrder(tx, refund.orderId);
    const [current] = await tx.select().from(refunds).where(eq(refunds.id, refund.id));
    if (!locked || !current) throw new Error(`refund ${refund.id} vanished`);
    const now = ctx.now();
    // A webhook about this refund may have settled it first.
    if (current.status !== 'pending') return { refund: current, outcome: current.status };
    if ('error' in answer) {
      if (!answer.final) {
        // Asked again later with the same key (retryPendingRefunds), not at once.
        await tx.update(refunds).set({ updatedAt: now }).where(eq(refunds.id, refund.id));
        return { refund: current, outcome: 'pending', error: REFUND_MSG.noAnswer };
      }
      const [failed] = await tx
        .update(refunds)
        .set({ status: 'failed', updatedAt: now })
        .where(eq(refunds.id, refund.id))
        .returning();
      await refundEvent(
        tx,
        locked,
        failed ?? current,
        `Refund of ${formatCents(current.amountCents, current.currency)} refused by the payment service: ${answer.error}`,
        now,
      );
      return { refund: failed ?? current, outcome: 'failed', error: REFUND_MSG.refused(answer.error) };
    }
    const [written] = await tx
      .update(refunds)
      .set({ status: answer.status, providerRefundId: answer.id, updatedAt: now })
      .where(eq(refunds.id, refund.id))
      .returning();
    const row = written ?? current;
    await afterStatusChange(deps, tx, locked, row, 'pending', notice, now);
    return { refund: row, outcome: row.status };
  });
  ctx.outbox?.poke();
  return settled;
}

async function refundEvent(tx: Db, order: Order, refund: Refund, note: string, now: Date) {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    kind: 'refund',
    actor: refund.actor,
    actorUserId: refund.actorUserId,
    note,
    amountCents: refund.amountCents,
    metadata: { refundId: refund.id, status: refund.status, providerRefundId: refund.providerRefundId },
    createdAt: now,
  });
}

/** After a refund's status changed from `was`: the order's sum, its timeline, the customer's mail, flags. */
async function afterStatusChange(
  deps: RefundDeps,
  tx: Db,
  order: Order,
  refund: Refund,
  was: Refund['status'] | null,
  notice: RefundNotice | null,
  now: Date,
) {
  const refunded = await syncRefunded(tx, order, now);
  const amount = formatCents(refund.amountCents, refund.currency);
  const by = refund.actor === 'admin' ? '' : ' in the payment provider';
  if (refund.status === 'succeeded') {
    await refundEvent(
      tx,
      order,
      refund,
      `Refunded ${amount}${by}${refund.reason ? `: ${refund.reason}` : ''}`,
      now,
    );
  } else if (refund.status === 'failed') {
    await refundEvent(tx, order, refund, `Refund of ${amount} failed${by}`, now);
    if (was === 'succeeded') {
      await raiseFlag(tx, deps.ctx, deps.log, order, {
        kind: 'refund_failed',
        details: `The refund of ${amount} (${refund.providerRefundId ?? refund.id}) failed after it had succeeded: the money did not go back. It no longer counts as refunded.`,
        sourceKey: refund.providerRefundId ?? `refund-${refund.id}`,
        actor: 'payment provider',
      });
    }
  } else {
    await refundEvent(tx, order, refund, `Refund of ${amount} under way${by}`, now);
  }
  if (refund.status !== 'succeeded') return;
  const fresh = { ...order, amountRefundedCents: refunded };
  // Money sent back outside the shop for an order still to be shipped: staff must not ship it unawares.
  const shippable = ['paid', 'queued', 'printing'].includes(order.status);
  if (
    refund.actor !== 'admin' &&
    shippable &&
    order.amountPaidCents !== null &&
    refunded >= order.amountPaidCents
  ) {
    await raiseFlag(tx, deps.ctx, deps.log, fresh, {
      kind: 'refunded_in_provider',
      details: `The whole payment (${formatCents(refunded, order.currency)}) was refunded in the payment provider before the order shipped: do not ship it unless the customer pays again.`,
      blocking: true,
      sourceKey: 'full-refund',
      actor: 'payment provider',
    });
  }
  if (!notice?.notify) return;
  const to = await customerEmail(tx, order);
  const brand = { shopName: deps.ctx.config.shopName, publicUrl: deps.ctx.config.publicUrl };
  const mail =
    notice.kind === 'cancel'
      ? statusMail(brand, fresh, to, { refundedCents: refund.amountCents, reason: notice.reason })
      : refundMail(brand, fresh, to, refund.amountCents, refund.reason);
  if (mail) await queueOrderMail(tx, order, mail, { actor: 'system', now });
}

export async function customerEmail(tx: Db, order: Order): Promise<string> {
  if (order.customerEmail) return order.customerEmail;
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId));
  return user?.email ?? '';
}

/**
 * A refund the provider reports (refund.created/updated/failed, or one found listing a charge's refunds):
 * recorded once by its id, matched to the shop's own pending refund by the metadata the shop sent, else
 * recorded as made in the provider. Call inside a transaction that recorded the event.
 */
export async function recordProviderRefund(
  deps: RefundDeps,
  tx: Db,
  reported: ProviderRefund,
): Promise<{ orderId: number | null; changed: boolean }> {
  if (!reported.paymentIntentId) return { orderId: null, changed: false };
  const [found] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.paymentIntentId, reported.paymentIntentId));
  const order = found ? await lockOrder(tx, found.id) : undefined;
  if (!order) return { orderId: null, changed: false };
  const now = deps.ctx.now();
  const ours = Number(reported.metadata.refundId);
  const [existing] = await tx
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.orderId, order.id),
        or(
          eq(refunds.providerRefundId, reported.id),
          Number.isInteger(ours) && ours > 0 ? eq(refunds.id, ours) : sql`false`,
        ),
      ),
    );
  if (existing) {
    if (existing.status === reported.status && existing.providerRefundId === reported.id) {
      return { orderId: order.id, changed: false };
    }
    const [row] = await tx
      .update(refunds)
      .set({ status: reported.status, providerRefundId: reported.id, updatedAt: now })
      .where(eq(refunds.id, existing.id))
      .returning();
    if (row && row.status !== existing.status) {
      await afterStatusChange(
        deps,
        tx,
        order,
        row,
        existing.status,
        { kind: 'refund', notify: existing.actor === 'admin' },
        now,
      );
    }
    return { orderId: order.id, changed: true };
  }
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      provider: deps.provider.name,
      providerRefundId: reported.id,
      amountCents: reported.amountCents,
      currency: reported.currency,
      status: reported.status,
      reason: 'made in the payment provider',
      actor: 'payment provider',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: refunds.providerRefundId })
    .returning();
  if (!row) return { orderId: order.id, changed: false };
  await afterStatusChange(deps, tx, order, row, null, null, now);
  return { orderId: order.id, changed: true };
}

/** Pending refunds the provider has not answered for a while: asked again with their key (reconcile job). */
export async function retryPendingRefunds(deps: RefundDeps, olderThanMs = 2 * 60_000): Promise<number> {
  const before = new Date(deps.ctx.now().getTime() - olderThanMs);
  const due = await deps.ctx.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), eq(refunds.actor, 'admin'), lt(refunds.updatedAt, before)))
    .orderBy(asc(refunds.id))
    .limit(50);
  let settled = 0;
  for (const refund of due) {
    const result = await settleRefund(deps, refund, { kind: 'refund', notify: true });
    if (result.outcome !== 'pending') settled++;
  }
  return settled;
}
