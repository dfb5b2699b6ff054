import { and, asc, eq, isNull } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/catalog.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { type Order, orderEvents, orderItems, orders, paymentEvents, users } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import type { PreviewLinks } from '../models/preview-links.ts';
import { shipByDate } from '../orders/ship-by.ts';
import { canMove } from '../orders/status.ts';
import { confirmationMail } from './confirmation-mail.ts';
import type { PaymentProvider, SessionState } from './payment-provider.ts';

// fulfilCheckout: the one way an order leaves `pending` (docs/domain.md). The webhook, the success page's
// status call, the simulator's Pay and the reconcile job all call it with a session id; it reads the
// session from the provider (never the caller's word) and, in one transaction, applies what it says:
// - a provider event id is stored uniquely first, so a repeated event is applied once;
// - the order row is locked, so concurrent calls for one session make one transition and one mail;
// - pending -> paid only when the session is paid for exactly the order's amount and currency (otherwise
//   the order is flagged for staff, since money may have to go back); a failed async payment -> failed;
//   an expired session -> cancelled; nothing ever moves an order backwards.

export type FulfilDeps = { ctx: AppContext; provider: PaymentProvider; previewLinks: PreviewLinks };

export type FulfilSource = {
  actor: 'webhook' | 'simulator' | 'customer' | 'reconcile';
  /** The provider's event id, when an event caused the call. */
  eventId?: string;
  eventType?: string;
};

export type FulfilResult = {
  orderId: number | null;
  status: string | null;
  /** The order moved (or was flagged) by this call. */
  changed: boolean;
  /** The event had been applied before: nothing was done. */
  duplicate: boolean;
};

const ASYNC_FAILED = 'checkout.session.async_payment_failed';
/** How long the preview links in the confirmation mail work. */
const MAIL_IMAGE_TTL_MS = 365 * 24 * 3600_000;

type Outcome =
  | { kind: 'none' }
  | { kind: 'move'; to: OrderStatus; note: string }
  | { kind: 'flag'; flag: string };

/** What a session says about an order, given where the order stands. */
export function decide(order: Order, session: SessionState, eventType?: string): Outcome {
  const paid = session.paymentStatus === 'paid';
  if (order.status !== 'pending') {
    // Money taken for an order that will not go ahead (failed or cancelled first): staff must refund it.
    if (
      paid &&
      (order.status === 'failed' || order.status === 'cancelled') &&
      order.amountPaidCents === null
    ) {
      return { kind: 'flag', flag: `Paid after the order was ${order.status}: refund or fulfil it.` };
    }
    return { kind: 'none' };
  }
  if (paid) {
    const amountOk = session.amountTotalCents === order.totalCents;
    const currencyOk = (session.currency ?? '').toLowerCase() === order.currency.toLowerCase();
    if (amountOk && currencyOk) return { kind: 'move', to: 'paid', note: 'payment received' };
    return {
      kind: 'flag',
      flag: `Paid ${session.amountTotalCents ?? '?'} ${session.currency ?? '?'} for an order of ${order.totalCents} ${order.currency}: check and refund.`,
    };
  }
  if (eventType === ASYNC_FAILED && session.status === 'complete') {
    return { kind: 'move', to: 'failed', note: 'the payment failed' };
  }
  if (session.status === 'expired')
    return { kind: 'move', to: 'cancelled', note: 'the checkout expired unpaid' };
  return { kind: 'none' };
}

/** Stores the event id; false when it was stored before (the event was applied already). */
async function recordEvent(tx: Db, provider: string, source: FulfilSource): Promise<boolean> {
  if (!source.eventId) return true;
  const inserted = await tx
    .insert(paymentEvents)
    .values({ id: source.eventId, provider, type: source.eventType ?? 'unknown' })
    .onConflictDoNothing({ target: paymentEvents.id })
    .returning({ id: paymentEvents.id });
  return inserted.length === 1;
}

async function queueConfirmation(
  deps: FulfilDeps,
  tx: Db,
  order: Order,
  session: SessionState,
  shipBy: string,
) {
  const [user] = await tx.select().from(users).where(eq(users.id, order.userId)).limit(1);
  if (!user || !session.shipping) return;
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  const imagesUntil = new Date(deps.ctx.now().getTime() + MAIL_IMAGE_TTL_MS);
  const lines = [];
  for (const i of items) {
    lines.push({
      fileName: i.fileName,
      color: i.color,
      strength: i.strength,
      quantity: i.quantity,
      unitCents: i.unitPriceCents,
      lineCents: i.lineTotalCents,
      discountPercent: i.breakdown?.discountPercent ?? 0,
      imageUrl: i.modelId ? await deps.previewLinks.sign(i.modelId, imagesUntil) : null,
    });
  }
  const { config } = deps.ctx;
  await enqueueMail(
    tx,
    confirmationMail(
      { shopName: config.shopName, publicUrl: config.publicUrl },
      {
        to: user.email,
        username: user.username,
        orderId: order.id,
        currency: order.currency,
        totalCents: order.totalCents,
        shippingCents: order.shippingCents,
        lines,
        shipping: session.shipping,
        shipBy,
      },
    ),
  );
}

export async function fulfilCheckout(
  deps: FulfilDeps,
  sessionId: string,
  source: FulfilSource,
): Promise<FulfilResult> {
  const { ctx, provider } = deps;
  // Asked before the transaction: a provider that is slow must not hold a row lock.
  const session = await provider.retrieveSession(sessionId);
  // The mail's preview links are signed inside the transaction: their key must be read before it.
  await deps.previewLinks.ready();
  let mailQueued = false;
  const result = await ctx.db.transaction(async (tx): Promise<FulfilResult> => {
    if (!(await recordEvent(tx, provider.name, source))) {
      return { orderId: null, status: null, changed: false, duplicate: true };
    }
    const order = await lockOrderOf(tx, session);
    if (!order) {
      await setEventOutcome(tx, source, null, 'no order for this session');
      return { orderId: null, status: null, changed: false, duplicate: false };
    }
    const now = ctx.now();
    const outcome = decide(order, session, source.eventType);
    if (outcome.kind === 'none') {
      await setEventOutcome(tx, source, order.id, 'no change');
      return { orderId: order.id, status: order.status, changed: false, duplicate: false };
    }
    const paymentFacts = {
      amountPaidCents: session.paymentStatus === 'paid' ? session.amountTotalCents : null,
      paymentIntentId: session.paymentIntentId,
      ...(session.shipping ? shippingColumns(session.shipping) : {}),
      updatedAt: now,
    };
    if (outcome.kind === 'flag') {
      await tx
        .update(orders)
        .set({ ...paymentFacts, flag: outcome.flag })
        .where(eq(orders.id, order.id));
      await tx.insert(orderEvents).values({
        orderId: order.id,
        actor: source.actor,
        fromStatus: order.status,
        toStatus: order.status,
        note: `flagged: ${outcome.flag}`,
        createdAt: now,
      });
      await setEventOutcome(tx, source, order.id, 'flagged');
      return { orderId: order.id, status: order.status, changed: true, duplicate: false };
    }
    if (!canMove(order.status, outcome.to)) {
      await setEventOutcome(tx, source, order.id, 'no change');
      return { orderId: order.id, status: order.status, changed: false, duplicate: false };
    }
    const shipBy = outcome.to === 'paid' ? shipByDate(now) : null;
    await tx
      .update(orders)
      .set({
        ...paymentFacts,
        status: outcome.to,
        paymentUrl: null,
        ...(outcome.to === 'paid' ? { paidAt: now, shipBy } : {}),
      })
      .where(eq(orders.id, order.id));
    await tx.insert(orderEvents).values({
      orderId: order.id,
      actor: source.actor,
      fromStatus: order.status,
      toStatus: outcome.to,
      note: outcome.note,
      createdAt: now,
    });
    if (outcome.to === 'paid' && shipBy) {
      await queueConfirmation(deps, tx, order, session, shipBy);
      mailQueued = true;
    }
    await setEventOutcome(tx, source, order.id, outcome.to);
    return { orderId: order.id, status: outcome.to, changed: true, duplicate: false };
  });
  if (mailQueued) ctx.outbox?.poke();
  return result;
}

/**
 * The order a session was made for, locked. Found by the session id; or, if the shop failed to record that
 * id after the provider made the session, by the session's own order reference (the id is recorded then).
 */
async function lockOrderOf(tx: Db, session: SessionState): Promise<Order | undefined> {
  const [bySession] = await tx
    .select()
    .from(orders)
    .where(eq(orders.paymentSessionId, session.id))
    .for('update');
  if (bySession || session.orderId === null) return bySession;
  const [byReference] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, session.orderId), isNull(orders.paymentSessionId)))
    .for('update');
  if (!byReference) return undefined;
  await tx.update(orders).set({ paymentSessionId: session.id }).where(eq(orders.id, byReference.id));
  return { ...byReference, paymentSessionId: session.id };
}

async function setEventOutcome(tx: Db, source: FulfilSource, orderId: number | null, outcome: string) {
  if (!source.eventId) return;
  await tx.update(paymentEvents).set({ orderId, outcome }).where(eq(paymentEvents.id, source.eventId));
}

function shippingColumns(a: NonNullable<SessionState['shipping']>) {
  return {
    shippingName: a.name,
    shippingLine1: a.line1,
    shippingLine2: a.line2 || null,
    shippingCity: a.city,
    shippingState: a.state,
    shippingPostalCode: a.postalCode,
    shippingCountry: a.country,
  };
}

/**
 * charge.refunded: records what the provider says was refunded in all (it only grows, and never exceeds
 * what was paid), once per event, with an order event.
 */
export async function recordRefund(
  ctx: AppContext,
  provider: string,
  event: { id: string; type: string },
  charge: { paymentIntentId: string | null; amountRefundedCents: number },
): Promise<{ orderId: number | null; refundedCents: number | null }> {
  return ctx.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, provider, { actor: 'webhook', eventId: event.id, eventType: event.type }))) {
      return { orderId: null, refundedCents: null };
    }
    if (!charge.paymentIntentId) return { orderId: null, refundedCents: null };
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.paymentIntentId, charge.paymentIntentId))
      .for('update');
    if (!order) {
      await setEventOutcome(tx, { actor: 'webhook', eventId: event.id }, null, 'no order for this payment');
      return { orderId: null, refundedCents: null };
    }
    const paid = order.amountPaidCents ?? 0;
    const refunded = Math.min(paid, Math.max(order.amountRefundedCents, charge.amountRefundedCents));
    if (refunded !== order.amountRefundedCents) {
      const now = ctx.now();
      await tx
        .update(orders)
        .set({ amountRefundedCents: refunded, updatedAt: now })
        .where(eq(orders.id, order.id));
      await tx.insert(orderEvents).values({
        orderId: order.id,
        actor: 'webhook',
        fromStatus: order.status,
        toStatus: order.status,
        note: `refunded ${refunded} of ${paid} cents in all`,
        createdAt: now,
      });
    }
    await setEventOutcome(tx, { actor: 'webhook', eventId: event.id }, order.id, `refunded ${refunded}`);
    return { orderId: order.id, refundedCents: refunded };
  });
}

/** Marks that the reconcile job asked about an order now (so it asks again only later). */
export async function markChecked(db: Db, orderId: number, now: Date): Promise<void> {
  await db.update(orders).set({ paymentCheckedAt: now }).where(eq(orders.id, orderId));
}
