import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_CART_LINES } from '../../shared/cart.ts';
import { colorName, strengthLabel } from '../../shared/catalog.ts';
import { formatCents } from '../../shared/format.ts';
import type { AppContext } from '../context.ts';
import { type Order, orderEvents, orderItems, orders, users } from '../db/schema.ts';
import type { Viewer } from '../models/owner.ts';
import type { PreviewLinks } from '../models/preview-links.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { lineBreakdown } from '../pricing/price-model.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { type CheckedLine, checkCartLines } from './cart-lines.ts';
import { type CreatedSession, type PaymentProvider, PaymentProviderError } from './payment-provider.ts';
import { SESSION_PLACEHOLDER } from './providers/simulator.ts';

// Creating a checkout (POST /api/create-checkout-session.php): every line checked and priced by the
// server, the order written `pending` with its items in one transaction, then the provider's hosted
// session made with those prices. A second click with the same cart gets the same session.

export type CheckoutDeps = {
  ctx: AppContext;
  provider: PaymentProvider;
  previewLinks: PreviewLinks;
  log: FastifyBaseLogger;
};

type Placed = { kind: 'new'; order: Order; email: string } | { kind: 'reuse'; order: Order };

/** Sessions expire after 24 hours, as Stripe's do by default. */
export const SESSION_TTL_MS = 24 * 3600_000;
/** An identical cart checked out again within this time reuses the open session. */
export const REUSE_WINDOW_MS = 30 * 60_000;

export const CHECKOUT_MSG = {
  notACart: 'The cart is not valid.',
  empty: 'Your cart is empty.',
  tooMany: `A cart holds at most ${MAX_CART_LINES} lines.`,
  starting: 'Your checkout is being started in another tab. Please wait a moment and try again.',
  providerDown: 'The payment service is not available right now. Please try again in a few minutes.',
} as const;

/** What identifies a cart as priced: the same lines at the same prices give the same hash. */
export function cartHashOf(lines: CheckedLine[]): string {
  const canonical = lines.map((l) => [
    l.model.id,
    l.color,
    l.strength,
    l.quantity,
    l.notes,
    l.price.lineCents,
  ]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function describe(l: CheckedLine): string {
  const parts = [
    colorName(l.color),
    `${strengthLabel(l.strength)} (${l.strength}/5)`,
    `${l.quantity} × ${formatCents(l.price.unitCents)}`,
  ];
  if (l.price.discountPercent > 0) parts.push(`${l.price.discountPercent}% quantity discount`);
  return parts.join(' · ');
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
      buildVolumeMm: ctx.config.buildVolumeMm,
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

export async function createCheckout(
  deps: CheckoutDeps,
  user: { id: number; isAdmin: boolean },
  cartItems: unknown,
): Promise<CreatedSession> {
  const { ctx, provider } = deps;
  const viewer: Viewer = { userId: user.id, isAdmin: user.isAdmin, visitorHash: null };
  const lines = await checkedLines(deps, viewer, cartItems);
  const cartHash = cartHashOf(lines);
  const totalCents = lines.reduce((sum, l) => sum + l.price.lineCents, 0);
  const now = ctx.now();

  const placed = await ctx.db.transaction(async (tx): Promise<Placed> => {
    // One checkout at a time per customer: a double click waits here, then finds the first one's order.
    const [owner] = await tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, user.id))
      .for('update');
    if (!owner) throw new HttpError(401, 'You are not logged in.');
    const [open] = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, user.id),
          eq(orders.status, 'pending'),
          eq(orders.cartHash, cartHash),
          isNull(orders.flag),
          gt(orders.createdAt, new Date(now.getTime() - REUSE_WINDOW_MS)),
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
        subtotalCents: totalCents,
        shippingCents: 0,
        currency: 'usd',
        cartHash,
        paymentProvider: provider.name,
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
    return { kind: 'new', order, email: owner.email };
  });

  if (placed.kind === 'reuse') {
    const o = placed.order;
    const stillOpen = o.paymentExpiresAt && o.paymentExpiresAt.getTime() > now.getTime() + 60_000;
    if (o.paymentSessionId && o.paymentUrl && stillOpen) {
      return { id: o.paymentSessionId, url: o.paymentUrl, expiresAt: o.paymentExpiresAt! };
    }
    // Its session is still being made by the first request.
    throw new HttpError(409, CHECKOUT_MSG.starting);
  }

  const { order } = placed;
  const { publicUrl } = ctx.config;
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  let session: CreatedSession;
  try {
    const sessionLines = [];
    for (const l of lines) {
      sessionLines.push({
        name: l.model.fileName,
        description: describe(l),
        imageUrl: l.model.previewKey ? await deps.previewLinks.sign(l.model.id, expiresAt) : null,
        amountCents: l.price.lineCents,
      });
    }
    session = await provider.createSession({
      orderId: order.id,
      currency: order.currency,
      lines: sessionLines,
      customerEmail: placed.email,
      successUrl: `${publicUrl}/payment-success?session_id=${SESSION_PLACEHOLDER}`,
      cancelUrl: `${publicUrl}/payment-cancel`,
      expiresAt,
    });
  } catch (err) {
    // Nothing was paid and no session exists: the order never happened.
    await ctx.db.delete(orders).where(eq(orders.id, order.id));
    if (err instanceof PaymentProviderError) {
      deps.log.error({ err, orderId: order.id }, 'payment session not created');
      throw new HttpError(502, CHECKOUT_MSG.providerDown);
    }
    throw err;
  }
  await ctx.db
    .update(orders)
    .set({
      paymentSessionId: session.id,
      paymentUrl: session.url,
      paymentExpiresAt: session.expiresAt,
      updatedAt: ctx.now(),
    })
    .where(eq(orders.id, order.id));
  return session;
}
