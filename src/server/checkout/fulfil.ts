import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { SHIPPING_COUNTRY_NAMES } from '../../shared/address.ts';
import type { OrderStatus } from '../../shared/catalog.ts';
import type { PaidShipping, TaxLine } from '../../shared/shipping.ts';
import { removePaidLines } from '../cart/saved-cart.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { models, type Order, orderItems, orders, paymentEvents, users } from '../db/schema.ts';
import type { PreviewLinks } from '../models/preview-links.ts';
import { raiseFlag } from '../orders/flags.ts';
import { queueOrderMail } from '../orders/order-mails.ts';
import { canMove, moveOrder } from '../orders/state-machine.ts';
import { createCalendar } from '../shipping/calendar.ts';
import { queueHours } from '../shipping/queue-load.ts';
import { loadProductionSettings } from '../shipping/settings-repository.ts';
import { arrivalWindow, shipByFor } from '../shipping/ship-by.ts';
import { confirmationMail, type MailAddress } from './confirmation-mail.ts';
import type { InstallId } from './install-id.ts';
import {
  type PaymentProvider,
  type RawAddress,
  SessionNotFoundError,
  type SessionState,
} from './payment-provider.ts';

// fulfilCheckout: the one way an order leaves `pending` (docs/domain.md). The webhook, the success page's
// status call, the simulator's Pay and the reconcile job all call it with a session id; it reads the
// session from the provider (never the caller's word) and, in one transaction, applies what it says:
// - a provider event id is stored uniquely first, so a repeated event is applied once (and a redelivered
//   one is known before the provider is even asked);
// - the order row is locked, so concurrent calls for one session make one transition and one mail;
// - pending -> paid only when the session is paid for exactly the order's amount and currency (otherwise
//   the order is flagged for staff, since money may have to go back); a failed payment -> failed; an
//   expired session -> cancelled; nothing ever moves an order backwards (orders/state-machine.ts);
// - a paid order keeps the address it was paid with, even one the shop's rules refuse (then flagged), and
//   its lines leave the account's saved cart.

export type FulfilDeps = {
  ctx: AppContext;
  provider: PaymentProvider;
  previewLinks: PreviewLinks;
  installId: InstallId;
  /** Where flags are logged (warn); the app's logger. */
  log?: FastifyBaseLogger;
};

export type FulfilSource = {
  actor: 'webhook' | 'simulator' | 'customer' | 'reconcile' | 'system';
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
  /** The provider does not know the session (a signed event for another shop's): nothing was done. */
  unknownSession?: boolean;
};

const ASYNC_FAILED = 'checkout.session.async_payment_failed';
/** A PaymentIntent in these states will not be paid by this session any more. */
const INTENT_FAILED = new Set(['requires_payment_method', 'canceled']);
/** How long the preview links in the confirmation mail work. */
const MAIL_IMAGE_TTL_MS = 365 * 24 * 3600_000;

/** What the order keeps of a payment whose parts are right: the method chosen, its price, the tax. */
export type PaidParts = {
  shippingCents: number;
  shippingRate: PaidShipping | null;
  taxCents: number;
  taxLines: TaxLine[];
  totalCents: number;
};

/**
 * The money in parts, not only the total (docs/domain.md): the items' subtotal is the order's, the shipping
 * is one of the methods offered at its price for this order, the tax is what the provider computed (never
 * negative), and they add up to what was paid. An order from before shipping methods was offered none: its
 * shipping must be free and its total the order's.
 */
export function checkPaidParts(
  order: Order,
  session: SessionState,
): { ok: true; parts: PaidParts } | { ok: false; why: string } {
  const paid = session.amountTotalCents;
  if (paid === null) return { ok: false, why: 'no amount' };
  const subtotal =
    session.amountSubtotalCents ?? paid - (session.shippingCents ?? 0) - (session.taxCents ?? 0);
  if (subtotal !== order.subtotalCents) {
    return { ok: false, why: `items ${subtotal} instead of ${order.subtotalCents}` };
  }
  const shipping = session.shippingCents ?? 0;
  const tax = session.taxCents ?? 0;
  if (tax < 0) return { ok: false, why: `negative tax ${tax}` };
  const offers = order.shippingOffers ?? [];
  let rate: PaidShipping | null = null;
  if (offers.length > 0) {
    const chosen =
      offers.find((o) => o.id === session.shippingMethodId) ??
      // A session read without its rate's metadata: the one offer at this price, if only one is.
      (session.shippingMethodId === null && offers.filter((o) => o.priceCents === shipping).length === 1
        ? offers.find((o) => o.priceCents === shipping)
        : undefined);
    if (!chosen)
      return {
        ok: false,
        why: `a shipping method that was not offered (${session.shippingMethodId ?? 'none'})`,
      };
    if (chosen.priceCents !== shipping) {
      return { ok: false, why: `shipping ${shipping} for ${chosen.name} offered at ${chosen.priceCents}` };
    }
    rate = {
      id: chosen.id,
      name: chosen.name,
      priceCents: chosen.priceCents,
      transitDays: chosen.transitDays,
    };
  } else if (shipping !== 0) {
    return { ok: false, why: `shipping ${shipping} when none was offered` };
  }
  if (subtotal + shipping + tax !== paid) {
    return { ok: false, why: `parts ${subtotal} + ${shipping} + ${tax} do not make ${paid}` };
  }
  return {
    ok: true,
    parts: {
      shippingCents: shipping,
      shippingRate: rate,
      taxCents: tax,
      taxLines: session.taxLines,
      totalCents: paid,
    },
  };
}

type Outcome =
  | { kind: 'none' }
  | { kind: 'move'; to: OrderStatus; note: string; parts?: PaidParts }
  | { kind: 'flag'; flag: 'amount_mismatch' | 'paid_after_cancel'; details: string };

/** What a session says about an order, given where the order stands. */
export function decide(order: Order, session: SessionState, eventType?: string): Outcome {
  const paid = session.paymentStatus === 'paid';
  if (order.status !== 'pending') {
    // Money taken for an order that will not go ahead (failed, cancelled or replaced first): staff must
    // refund it or fulfil it; it is never lost.
    if (
      paid &&
      (order.status === 'failed' || order.status === 'cancelled') &&
      order.amountPaidCents === null
    ) {
      const why = order.cancelReason ? ` (${order.cancelReason})` : '';
      return {
        kind: 'flag',
        flag: 'paid_after_cancel',
        details: `Paid ${formatAmount(session)} after the order was ${order.status}${why}: refund or fulfil it.`,
      };
    }
    return { kind: 'none' };
  }
  if (paid) {
    const currencyOk = (session.currency ?? '').toLowerCase() === order.currency.toLowerCase();
    const check = checkPaidParts(order, session);
    if (currencyOk && check.ok)
      return { kind: 'move', to: 'paid', note: 'payment received', parts: check.parts };
    const why = currencyOk ? (check.ok ? '' : ` (${check.why})`) : ' (another currency)';
    return {
      kind: 'flag',
      flag: 'amount_mismatch',
      details: `Paid ${formatAmount(session)} for an order of ${order.totalCents} ${order.currency}${why}: check and refund.`,
    };
  }
  if (session.status === 'complete') {
    if (eventType === ASYNC_FAILED) return { kind: 'move', to: 'failed', note: 'the payment failed' };
    // Complete but unpaid, and no event said why: the PaymentIntent tells whether it still may be paid.
    if (session.paymentIntentStatus && INTENT_FAILED.has(session.paymentIntentStatus)) {
      return { kind: 'move', to: 'failed', note: `the payment failed (${session.paymentIntentStatus})` };
    }
  }
  if (session.status === 'expired')
    return { kind: 'move', to: 'cancelled', note: 'the checkout expired unpaid' };
  return { kind: 'none' };
}

const formatAmount = (s: SessionState) => `${s.amountTotalCents ?? '?'} ${s.currency ?? '?'}`;

/** Whether an event id was applied before (checked before the provider is asked, so a repeat costs nothing). */
async function eventSeen(db: Db, eventId: string | undefined): Promise<boolean> {
  if (!eventId) return false;
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, eventId));
  return row !== undefined;
}

/** Stores the event id; false when it was stored before (the event was applied already). */
export async function recordEvent(
  tx: Db,
  provider: string,
  source: Pick<FulfilSource, 'eventId' | 'eventType'>,
  outcome?: string,
): Promise<boolean> {
  if (!source.eventId) return true;
  const inserted = await tx
    .insert(paymentEvents)
    .values({ id: source.eventId, provider, type: source.eventType ?? 'unknown', outcome: outcome ?? null })
    .onConflictDoNothing({ target: paymentEvents.id })
    .returning({ id: paymentEvents.id });
  return inserted.length === 1;
}

export async function setEventOutcome(
  tx: Db,
  source: Pick<FulfilSource, 'eventId'>,
  orderId: number | null,
  outcome: string,
) {
  if (!source.eventId) return;
  await tx.update(paymentEvents).set({ orderId, outcome }).where(eq(paymentEvents.id, source.eventId));
}

/** Control characters and direction marks become spaces: a raw address never breaks a mail's lines. */
const tidy = (v: string, max: number) =>
  v
    .replace(/[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .trim()
    .slice(0, max);

function addressColumns(a: RawAddress) {
  return {
    shippingName: tidy(a.name, 200),
    shippingLine1: tidy(a.line1, 300),
    shippingLine2: tidy(a.line2, 300) || null,
    shippingCity: tidy(a.city, 200),
    shippingState: tidy(a.state, 100),
    shippingPostalCode: tidy(a.postalCode, 40),
    shippingCountry: tidy(a.country, 10),
  };
}

/** The address the order keeps: the one the shop's rules accept, else the raw one (the order is flagged). */
function paidAddress(session: SessionState): MailAddress | null {
  const a = session.shipping ?? session.rawShipping;
  if (!a) return null;
  const c = addressColumns(a);
  return {
    name: c.shippingName,
    line1: c.shippingLine1,
    line2: c.shippingLine2 ?? '',
    city: c.shippingCity,
    state: c.shippingState,
    postalCode: c.shippingPostalCode,
    country: SHIPPING_COUNTRY_NAMES[c.shippingCountry as 'US' | 'CA'] ?? c.shippingCountry,
  };
}

async function queueConfirmation(deps: FulfilDeps, tx: Db, order: Order, address: MailAddress | null) {
  const [user] = await tx.select().from(users).where(eq(users.id, order.userId)).limit(1);
  if (!user) return;
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  const now = deps.ctx.now();
  const imagesUntil = new Date(now.getTime() + MAIL_IMAGE_TTL_MS);
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
      imageUrl: i.modelId ? await deps.previewLinks.sign(i.modelId, imagesUntil, i.color) : null,
    });
  }
  const { config } = deps.ctx;
  const mail = confirmationMail(
    { shopName: config.shopName, publicUrl: config.publicUrl },
    {
      to: order.customerEmail ?? user.email,
      username: user.username,
      orderId: order.id,
      testMode: order.paymentProvider === 'simulator',
      currency: order.currency,
      totalCents: order.totalCents,
      shippingCents: order.shippingCents,
      subtotalCents: order.subtotalCents,
      shippingMethod: order.shippingMethod,
      taxCents: order.taxCents,
      taxLines: order.taxLines ?? [],
      arrivesFrom: order.arrivesFrom,
      arrivesBy: order.arrivesBy,
      lines,
      shipping: address,
      shipBy: order.shipBy ?? '',
    },
  );
  await queueOrderMail(tx, order, mail, { actor: 'system', now });
  await removePaidLines(
    tx,
    order.userId,
    items.map((i) => ({ modelId: i.modelId, color: i.color, strength: i.strength, quantity: i.quantity })),
    now,
  );
}

/**
 * What a paid order stores: the method and tax it was paid with, and its dates from the print queue as it is
 * now (the queue ahead: every paid, queued and printing piece not yet printed; this order is still pending).
 */
async function paidFacts(tx: Db, order: Order, parts: PaidParts, now: Date) {
  const production = await loadProductionSettings(tx);
  const calendar = createCalendar(production);
  const [own] = await tx
    .select({ hours: sql<number>`coalesce(sum(${orderItems.printHours} * ${orderItems.quantity}), 0)` })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id));
  const shipBy = shipByFor({
    now,
    queueHours: await queueHours(tx),
    ownHours: Number(own?.hours ?? 0),
    production,
    calendar,
  });
  const window = parts.shippingRate ? arrivalWindow(shipBy, parts.shippingRate.transitDays, calendar) : null;
  return {
    shippingCents: parts.shippingCents,
    shippingRate: parts.shippingRate,
    shippingMethod: parts.shippingRate?.name ?? order.shippingMethod,
    taxCents: parts.taxCents,
    taxLines: parts.taxLines,
    totalCents: parts.totalCents,
    shipBy,
    arrivesFrom: window?.from ?? null,
    arrivesBy: window?.to ?? null,
  };
}

/** A paid order holding a model whose shells the analysis turned outward: staff check the print. */
async function flagCorrectedModels(deps: FulfilDeps, tx: Db, order: Order, actor: string) {
  const corrected = await tx
    .select({ fileName: orderItems.fileName, shells: models.correctedShells })
    .from(orderItems)
    .innerJoin(models, eq(models.id, orderItems.modelId))
    .where(and(eq(orderItems.orderId, order.id), gt(models.correctedShells, 0)));
  if (corrected.length === 0) return;
  const names = corrected.map((c) => `${c.fileName} (${c.shells} inside out)`).join(', ');
  await raiseFlag(tx, deps.ctx, deps.log, order, {
    kind: 'model_corrected',
    details: `The analysis turned inside-out parts of these models outward and priced them in full: ${names}. Check that the print is what the customer meant.`,
    sourceKey: 'models',
    actor,
  });
}

export async function fulfilCheckout(
  deps: FulfilDeps,
  sessionId: string,
  source: FulfilSource,
): Promise<FulfilResult> {
  const { ctx, provider } = deps;
  if (await eventSeen(ctx.db, source.eventId)) {
    return { orderId: null, status: null, changed: false, duplicate: true };
  }
  // Asked before the transaction: a provider that is slow must not hold a row lock.
  let session: SessionState;
  try {
    session = await provider.retrieveSession(sessionId);
  } catch (err) {
    if (!(err instanceof SessionNotFoundError)) throw err;
    // A validly signed event for a session this provider account does not know: nothing to do, and
    // answering an error would only make the provider deliver it again for days.
    await recordEvent(ctx.db, provider.name, source, 'ignored: unknown session');
    return { orderId: null, status: null, changed: false, duplicate: false, unknownSession: true };
  }
  // Keys read inside the transaction must be read before it (PGlite has one connection).
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
    const address = session.shipping ?? session.rawShipping;
    const paymentFacts = {
      amountPaidCents: session.paymentStatus === 'paid' ? session.amountTotalCents : null,
      paymentIntentId: session.paymentIntentId,
      paymentChargeId: session.chargeId,
      ...(address ? addressColumns(address) : {}),
      updatedAt: now,
    };
    if (outcome.kind === 'flag') {
      const [flagged] = await tx.update(orders).set(paymentFacts).where(eq(orders.id, order.id)).returning();
      await raiseFlag(tx, ctx, deps.log, flagged ?? order, {
        kind: outcome.flag,
        details: outcome.details,
        sourceKey: session.id,
        blocking: true,
        actor: source.actor,
      });
      mailQueued = true;
      await setEventOutcome(tx, source, order.id, 'flagged');
      return { orderId: order.id, status: order.status, changed: true, duplicate: false };
    }
    if (!canMove(order.status, outcome.to, 'payment')) {
      await setEventOutcome(tx, source, order.id, 'no change');
      return { orderId: order.id, status: order.status, changed: false, duplicate: false };
    }
    const moved = await moveOrder(tx, order, outcome.to, {
      role: 'payment',
      actor: source.actor,
      note: outcome.note,
      now,
      set: {
        ...paymentFacts,
        ...(outcome.to === 'paid' && outcome.parts ? await paidFacts(tx, order, outcome.parts, now) : {}),
      },
    });
    if (outcome.to === 'paid') {
      if (!session.shipping) {
        await raiseFlag(tx, ctx, deps.log, moved, {
          kind: 'address_unreadable',
          details: session.rawShipping
            ? `The shipping address does not meet our rules (US states, DC and Puerto Rico, or Canada; fields within their lengths): check it with the customer before shipping. As paid: ${Object.values(addressColumns(session.rawShipping)).filter(Boolean).join(', ')}`
            : 'The payment came without a shipping address: ask the customer for it before shipping.',
          blocking: true,
          sourceKey: session.id,
          actor: source.actor,
        });
      }
      await flagCorrectedModels(deps, tx, moved, source.actor);
      await queueConfirmation(deps, tx, moved, paidAddress(session));
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
