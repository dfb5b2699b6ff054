import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, notExists } from 'drizzle-orm';
import { MAX_CART_LINES } from '../../shared/cart.ts';
import { formatCents } from '../../shared/format.ts';
import { type ShippingOffer, type ShipTo, shipToCountry } from '../../shared/shipping.ts';
import { models, type Order, orderEvents, orderFlags, orderItems, orders, users } from '../db/schema.ts';
import type { Viewer } from '../models/owner.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { lineBreakdown } from '../pricing/price-model.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { loadShopSettings } from '../settings/shop-settings.ts';
import { quoteDelivery } from '../shipping/offers.ts';
import { weekdaysUntil } from '../shipping/ship-by.ts';
import { type CheckedLine, checkCartLines } from './cart-lines.ts';
import type { FulfilDeps } from './fulfil.ts';
import { describeLine } from './line-words.ts';
import { type CreatedSession, PaymentProviderError, type SessionLine } from './payment-provider.ts';
import { SESSION_PLACEHOLDER } from './providers/simulator.ts';
import { supersedeOpenCheckouts } from './supersede.ts';

// Creating a checkout (POST /api/create-checkout-session.php): every line checked and priced by the
// server, the order written `pending` with its items in one transaction, then the provider's hosted
// session made from what was written. A customer has one open checkout: the same cart again gets the same
// session (a double click, a second tab, a retry after the shop restarted mid-way: the provider is asked
// again with the order's idempotency key and answers the session it made), and a changed cart's checkout
// replaces the open one (supersede.ts), so the same print cannot be bought twice by accident.

export type CheckoutDeps = FulfilDeps & { log: NonNullable<FulfilDeps['log']> };

/**
 * Sessions expire a little inside Stripe's 24-hour bound, so a clock a few minutes off never makes Stripe
 * refuse the session.
 */
export const SESSION_TTL_MS = 23 * 3600_000 + 50 * 60_000;
/** An identical cart checked out again within this time reuses the open session. */
export const REUSE_WINDOW_MS = 30 * 60_000;

export const CHECKOUT_MSG = {
  notACart: 'The cart is not valid.',
  empty: 'Your cart is empty.',
  tooMany: `A cart holds at most ${MAX_CART_LINES} lines.`,
  starting: 'Your checkout is being started in another tab. Please wait a moment and try again.',
  replaced: 'Your cart changed in another tab while this checkout started. Please check out again.',
  providerDown: 'The payment service is not available right now. Please try again in a few minutes.',
  overCap: (max: number) =>
    `This order comes to more than we can take online (${formatCents(max)}). Please contact us for a quote.`,
} as const;

/** What identifies a cart as priced: the same lines at the same prices, shipped to the same country. */
export function cartHashOf(lines: CheckedLine[], shipTo: ShipTo = 'US'): string {
  const canonical: unknown[] = lines.map((l) => [
    l.model.id,
    l.color,
    l.strength,
    l.quantity,
    l.notes,
    l.price.lineCents,
  ]);
  if (shipTo !== 'US') canonical.push(['shipTo', shipTo]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

async function checkedLines(deps: CheckoutDeps, viewer: Viewer, cartItems: unknown): Promise<CheckedLine[]> {
  if (!Array.isArray(cartItems)) throw new HttpError(400, CHECKOUT_MSG.notACart);
  if (cartItems.length === 0) throw new HttpError(400, CHECKOUT_MSG.empty);
  if (cartItems.length > MAX_CART_LINES) throw new HttpError(400, CHECKOUT_MSG.tooMany);
  const { ctx } = deps;
  const checks = await checkCartLines(
    {
      db: ctx.db,
      viewer,
      buildVolumeMm: (await loadShopSettings(ctx.db, ctx.config)).buildVolumeMm,
      pricing: await loadPricingSettings(ctx.db),
    },
    cartItems,
  );
  const lines: CheckedLine[] = [];
  for (const c of checks) {
    if (!c.ok) throw new HttpError(400, c.error);
    lines.push(c.line);
  }
  return lines;
}

type Placed = { kind: 'new'; order: Order } | { kind: 'reuse'; order: Order };

/** The cart's 'Ship to': US when not given; anything but US or CA is refused before anything is written. */
export function parseShipTo(value: unknown): ShipTo {
  if (value === undefined || value === null) return 'US';
  const parsed = shipToCountry.safeParse(value);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Ship to is not valid.');
  return parsed.data;
}

export async function createCheckout(
  deps: CheckoutDeps,
  user: { id: number; isAdmin: boolean },
  cartItems: unknown,
  shipToInput?: unknown,
): Promise<CreatedSession> {
  const { ctx } = deps;
  const shipTo = parseShipTo(shipToInput);
  const viewer: Viewer = { userId: user.id, isAdmin: user.isAdmin, visitorHash: null };
  const lines = await checkedLines(deps, viewer, cartItems);
  const cartHash = cartHashOf(lines, shipTo);
  const subtotalCents = lines.reduce((sum, l) => sum + l.price.lineCents, 0);
  const now = ctx.now();
  const delivery = await quoteDelivery(ctx.db, {
    shipTo,
    subtotalCents,
    ownHours: lines.reduce((sum, l) => sum + l.price.hours * l.quantity, 0),
    now,
  });
  // The hosted page preselects the first method: the order's total starts with it, and the fulfilment
  // rewrites shipping, tax and total from what the customer chose and paid.
  const first = delivery.options[0];
  if (!first) throw new Error(`no shipping method for ${shipTo}`);
  const totalCents = subtotalCents + first.priceCents;
  // The cap counts the dearest method the customer may still choose.
  const dearest = subtotalCents + Math.max(...delivery.options.map((o) => o.priceCents));
  if (dearest > ctx.config.maxOrderCents)
    throw new HttpError(400, CHECKOUT_MSG.overCap(ctx.config.maxOrderCents));
  const offers: ShippingOffer[] = delivery.options.map((o) => ({
    ...o,
    arrivalBusinessDays: {
      min: weekdaysUntil(now, o.arrivesFrom, delivery.calendar),
      max: weekdaysUntil(now, o.arrivesBy, delivery.calendar),
    },
  }));

  const placed = await ctx.db.transaction(async (tx): Promise<Placed> => {
    // One checkout at a time per customer: a double click waits here, then finds the first one's order.
    const [owner] = await tx
      .select({ email: users.email, disabledAt: users.disabledAt })
      .from(users)
      .where(eq(users.id, user.id))
      .for('update');
    if (!owner) throw new HttpError(401, 'You are not logged in.');
    // Disabled while this request was under way: staff's sweep of open checkouts holds this row too.
    if (owner.disabledAt) throw new HttpError(403, 'This account is disabled. Please contact us.');
    const [open] = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, user.id),
          eq(orders.status, 'pending'),
          eq(orders.cartHash, cartHash),
          gt(orders.createdAt, new Date(now.getTime() - REUSE_WINDOW_MS)),
          notExists(
            tx
              .select({ id: orderFlags.id })
              .from(orderFlags)
              .where(and(eq(orderFlags.orderId, orders.id), isNull(orderFlags.resolvedAt))),
          ),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (open) return { kind: 'reuse', order: open };
    const [order] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        status: 'pending',
        totalCents,
        subtotalCents,
        shippingCents: first.priceCents,
        shippingMethod: first.name,
        shippingRate: {
          id: first.id,
          name: first.name,
          priceCents: first.priceCents,
          transitDays: first.transitDays,
        },
        shipTo,
        shippingOffers: offers,
        currency: 'usd',
        customerEmail: owner.email,
        cartHash,
        paymentProvider: deps.provider.name,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!order) throw new Error('order insert returned no row');
    await tx.insert(orderItems).values(
      lines.map((l) => ({
        orderId: order.id,
        modelId: l.model.id,
        fileName: l.model.fileName,
        color: l.color,
        strength: l.strength,
        quantity: l.quantity,
        unitPriceCents: l.price.unitCents,
        lineTotalCents: l.price.lineCents,
        notes: l.notes,
        breakdown: lineBreakdown(l.price),
        grams: l.price.grams,
        printHours: l.price.hours,
      })),
    );
    await tx.insert(orderEvents).values({
      orderId: order.id,
      actorUserId: user.id,
      actor: 'customer',
      fromStatus: null,
      toStatus: 'pending',
      note: 'checkout started',
      createdAt: now,
    });
    return { kind: 'new', order };
  });

  const { order } = placed;
  if (placed.kind === 'reuse') {
    const stillOpen = order.paymentExpiresAt && order.paymentExpiresAt.getTime() > now.getTime() + 60_000;
    if (order.paymentSessionId && order.paymentUrl && stillOpen) {
      return { id: order.paymentSessionId, url: order.paymentUrl, expiresAt: order.paymentExpiresAt! };
    }
    if (order.paymentSessionId) throw new HttpError(409, CHECKOUT_MSG.starting);
    // No session recorded: the first request is still at the provider, or died before recording it (a
    // restart). Asking again with the order's key answers the session it made, or makes it now.
  }

  let session: CreatedSession;
  try {
    session = await openSession(deps, order);
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.error({ err, orderId: order.id }, 'payment session not created');
    // Nothing was paid and no session exists: a new order never happened (a reused one stays for a retry).
    if (placed.kind === 'new') await ctx.db.delete(orders).where(eq(orders.id, order.id));
    throw new HttpError(502, CHECKOUT_MSG.providerDown);
  }
  const [recorded] = await ctx.db
    .update(orders)
    .set({
      paymentSessionId: session.id,
      paymentUrl: session.url,
      paymentExpiresAt: session.expiresAt,
      updatedAt: ctx.now(),
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  if (!recorded) {
    // A newer checkout (another tab) replaced this order while its session was being made.
    await deps.provider.expireSession(session.id).catch(() => undefined);
    throw new HttpError(409, CHECKOUT_MSG.replaced);
  }
  if (placed.kind === 'new') await supersedeOpenCheckouts(deps, user.id, order.id);
  return session;
}

/**
 * Makes (or, asked again, finds) the provider's session for a pending order, from what the order holds:
 * the same order always gives the same request, so the provider's idempotency key can answer a retry.
 */
export async function openSession(deps: CheckoutDeps, order: Order): Promise<CreatedSession> {
  const { ctx, provider } = deps;
  const items = await ctx.db
    .select({ item: orderItems, previewKey: models.previewKey })
    .from(orderItems)
    .leftJoin(models, eq(models.id, orderItems.modelId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  const expiresAt = new Date(order.createdAt.getTime() + SESSION_TTL_MS);
  const lines: SessionLine[] = [];
  for (const { item, previewKey } of items) {
    lines.push({
      name: item.fileName,
      description: describeLine({
        color: item.color,
        strength: item.strength,
        quantity: item.quantity,
        unitCents: item.unitPriceCents,
        discountPercent: item.breakdown?.discountPercent ?? 0,
      }),
      imageUrl:
        item.modelId && previewKey ? await deps.previewLinks.sign(item.modelId, expiresAt, item.color) : null,
      amountCents: item.lineTotalCents,
    });
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.id, order.userId));
  if (!user) throw new HttpError(401, 'You are not logged in.');
  const installId = await deps.installId();
  const providerCustomerId = await provider.customerFor(
    {
      id: user.id,
      email: user.email,
      username: user.username,
      idempotencyKey: `${installId}:customer:${user.id}`,
    },
    user.stripeCustomerId,
  );
  if (providerCustomerId && providerCustomerId !== user.stripeCustomerId) {
    await ctx.db.update(users).set({ stripeCustomerId: providerCustomerId }).where(eq(users.id, user.id));
  }
  const { publicUrl, shopName } = ctx.config;
  return provider.createSession({
    orderId: order.id,
    currency: order.currency,
    lines,
    shipTo: order.shipTo === 'US' || order.shipTo === 'CA' ? order.shipTo : null,
    // From what the order stored, so a retry sends the same request.
    shippingOptions: (order.shippingOffers ?? []).map((o) => ({
      id: o.id,
      name: o.name,
      amountCents: o.priceCents,
      minDays: o.arrivalBusinessDays?.min ?? o.transitDays.min,
      maxDays: o.arrivalBusinessDays?.max ?? o.transitDays.max,
    })),
    customer: { email: order.customerEmail ?? user.email, providerCustomerId },
    description: `Order #${order.id} at ${shopName}`,
    successUrl: `${publicUrl}/payment-success?session_id=${SESSION_PLACEHOLDER}`,
    cancelUrl: `${publicUrl}/payment-cancel?order=${order.id}`,
    expiresAt,
    idempotencyKey: `${installId}:order:${order.id}`,
  });
}
