import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { CartItem } from '../../shared/cart.ts';
import { MAX_ITEM_NOTES } from '../../shared/catalog.ts';
import type { OrderAgainPayload } from '../../shared/orders.ts';
import { type CheckedLine, checkCartLines, LINE_MSG } from '../checkout/cart-lines.ts';
import type { AppContext } from '../context.ts';
import { type Model, orderItems, orders } from '../db/schema.ts';
import { previewUrl } from '../models/model-payload.ts';
import { findModel } from '../models/models-repository.ts';
import type { Size } from '../models/warnings.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { dollars, round } from '../pricing/price-model.ts';
import { loadPricingSettings } from '../pricing/settings-repository.ts';
import { loadShopSettings } from '../settings/shop-settings.ts';

// POST /api/orders/:id/order-again: a customer's order as cart lines again, at the size ordered (the order
// item's model: a scaled copy has its own id) and at today's price, checked and priced by the cart's own
// check (checkout/cart-lines.ts), so the cart shows what the checkout will charge. A line that cannot be
// ordered any more (its model is no longer stored, its color is no longer offered...) is listed with why,
// never silently dropped. Nothing is written: the browser merges the lines into its cart, which syncs itself.

export const ORDER_AGAIN_MSG = {
  notFound: 'Order not found.',
  notStored: 'This model is no longer stored.',
  color: 'This color is no longer offered.',
  strength: 'This strength is no longer offered.',
  quantity: 'This quantity can no longer be ordered in one line.',
  tooBig: (b: { x: number; y: number; z: number }) =>
    `It is too big for our printer now (at most ${b.x} x ${b.y} x ${b.z} mm).`,
} as const;

type Unavailable = OrderAgainPayload['unavailable'][number];

/** The cart check's refusal in the words of a list that already names the file. */
function reasonOf(error: string, model: Model, buildVolumeMm: Size): string {
  const label = model.fileName;
  if (error === LINE_MSG.unavailable(label)) return ORDER_AGAIN_MSG.notStored;
  if (error === LINE_MSG.color(label)) return ORDER_AGAIN_MSG.color;
  if (error === LINE_MSG.strength(label)) return ORDER_AGAIN_MSG.strength;
  if (error === LINE_MSG.quantity(label)) return ORDER_AGAIN_MSG.quantity;
  if (error === LINE_MSG.tooBig(label, buildVolumeMm)) return ORDER_AGAIN_MSG.tooBig(buildVolumeMm);
  return error;
}

/** A checked line as the browser keeps it (src/shared/cart.ts; the client's addToCart gives it its own id). */
function toCartItem(line: CheckedLine): CartItem {
  const { model } = line;
  return {
    id: randomUUID(),
    filePath: model.id,
    fileName: model.fileName,
    color: line.color,
    strength: line.strength,
    cost: dollars(line.price.unitCents),
    quantity: line.quantity,
    // As the model payload gives it: the preview is drawn on first request when the model has none yet.
    previewImage: previewUrl(model.id),
    volumeCm3: round(model.volumeMm3 / 1000, 4),
    dimensions: { x: round(model.dimX, 3), y: round(model.dimY, 3), z: round(model.dimZ, 3) },
    notes: line.notes,
  };
}

/** The caller's own order (any status) as cart lines at today's prices; 404 for anyone else's. */
export async function orderAgain(
  ctx: AppContext,
  user: { id: number; isAdmin: boolean },
  orderId: number,
): Promise<OrderAgainPayload> {
  const [order] = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)));
  if (!order) throw new HttpError(404, ORDER_AGAIN_MSG.notFound);
  const rows = await ctx.db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));

  // Each line in the order's order: a cart line, or why it cannot be one.
  const outcomes: ({ item: CartItem } | { unavailable: Unavailable })[] = [];
  const stored: { at: number; row: (typeof rows)[number]; model: Model }[] = [];
  for (const row of rows) {
    // Retention cleanup never removes an ordered model, but an order may name none (a model removed
    // before that rule, or by hand): the row stands for its stored file.
    const model = row.modelId ? await findModel(ctx.db, row.modelId) : undefined;
    outcomes.push({ unavailable: { fileName: row.fileName, reason: ORDER_AGAIN_MSG.notStored } });
    if (model) stored.push({ at: outcomes.length - 1, row, model });
  }

  const { buildVolumeMm } = await loadShopSettings(ctx.db, ctx.config);
  const checks = await checkCartLines(
    {
      db: ctx.db,
      viewer: { userId: user.id, isAdmin: user.isAdmin, visitorHash: null },
      buildVolumeMm,
      pricing: await loadPricingSettings(ctx.db),
    },
    stored.map(({ row, model }) => ({
      filePath: model.id,
      fileName: row.fileName,
      color: row.color,
      strength: row.strength,
      quantity: row.quantity,
      // Notes written under an older, longer limit do not cost the customer the line.
      notes: row.notes.slice(0, MAX_ITEM_NOTES),
    })),
  );
  for (const [i, check] of checks.entries()) {
    const { at, row, model } = stored[i]!;
    outcomes[at] = check.ok
      ? { item: toCartItem(check.line) }
      : { unavailable: { fileName: row.fileName, reason: reasonOf(check.error, model, buildVolumeMm) } };
  }
  const items = outcomes.flatMap((o) => ('item' in o ? [o.item] : []));
  const unavailable = outcomes.flatMap((o) => ('unavailable' in o ? [o.unavailable] : []));
  return { items, unavailable };
}
