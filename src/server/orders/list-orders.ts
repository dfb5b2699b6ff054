import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { trackingUrl } from '../../shared/carriers.ts';
import type { OrderPayload } from '../../shared/orders.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import type { Db } from '../db/client.ts';
import { models, orderEvents, orderFlags, orderItems, orders, refunds } from '../db/schema.ts';
import { canMove } from './state-machine.ts';

const dollars = (cents: number) => Math.round(cents) / 100;
/** Millimetres to the micrometre: what a float's tail adds is noise. */
const mm = (value: number) => Math.round(value * 1000) / 1000;

/** A user's orders, newest first, shaped as docs/api.md (GET /api/get_orders.php). */
export async function listOrdersForUser(db: Db, userId: number, now: Date): Promise<OrderPayload[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  if (rows.length === 0) return [];
  const ids = rows.map((o) => o.id);
  const [items, refundRows, notes, flagged] = await Promise.all([
    // Each line's model as ordered: its size and scale (a rescale is a new model row; an ordered one stays).
    db
      .select({
        item: orderItems,
        model: { dimX: models.dimX, dimY: models.dimY, dimZ: models.dimZ, scale: models.scale },
      })
      .from(orderItems)
      .leftJoin(models, eq(models.id, orderItems.modelId))
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.id)),
    db
      .select()
      .from(refunds)
      .where(and(inArray(refunds.orderId, ids), eq(refunds.status, 'succeeded')))
      .orderBy(asc(refunds.createdAt), asc(refunds.id)),
    db
      .select()
      .from(orderEvents)
      .where(
        and(
          inArray(orderEvents.orderId, ids),
          eq(orderEvents.kind, 'note'),
          eq(orderEvents.visibleToCustomer, true),
        ),
      )
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .selectDistinct({ orderId: orderFlags.orderId })
      .from(orderFlags)
      .where(and(inArray(orderFlags.orderId, ids), isNull(orderFlags.resolvedAt))),
  ]);
  const hasOpenFlag = new Set(flagged.map((f) => f.orderId));
  return rows.map((o) => ({
    id: o.id,
    status: o.status,
    created_at: o.createdAt.toISOString(),
    total_amount: dollars(o.totalCents),
    currency: o.currency.toUpperCase(),
    tracking_number: o.trackingNumber,
    shipping_name: o.shippingName,
    shipping_line1: o.shippingLine1,
    shipping_line2: o.shippingLine2,
    shipping_city: o.shippingCity,
    shipping_state: o.shippingState,
    shipping_postal_code: o.shippingPostalCode,
    shipping_country: o.shippingCountry,
    ship_by: o.shipBy,
    arrives_from: o.arrivesFrom,
    arrives_by: o.arrivesBy,
    subtotal: dollars(o.subtotalCents),
    shipping_amount: dollars(o.shippingCents),
    shipping_method: o.shippingMethod ?? o.shippingRate?.name ?? null,
    tax_amount: dollars(o.taxCents),
    tax_lines: (o.taxLines ?? []).map((l) => ({ label: l.label, amount: dollars(l.amountCents) })),
    // The hosted checkout, while it can still be paid and staff have not flagged the order: My Orders
    // offers 'Complete payment'.
    payment_url:
      o.status === 'pending' &&
      !hasOpenFlag.has(o.id) &&
      o.paymentUrl &&
      o.paymentExpiresAt &&
      o.paymentExpiresAt.getTime() > now.getTime()
        ? o.paymentUrl
        : null,
    test_mode: o.paymentProvider === 'simulator',
    carrier: o.status === 'shipped' ? o.carrier : null,
    tracking_url: o.status === 'shipped' ? trackingUrl(o.carrier, o.trackingNumber) : null,
    amount_refunded: dollars(o.amountRefundedCents),
    refunds: refundRows
      .filter((r) => r.orderId === o.id)
      .map((r) => ({ amount: dollars(r.amountCents), created_at: r.createdAt.toISOString() })),
    notes: notes
      .filter((n) => n.orderId === o.id)
      .map((n) => ({ text: n.note ?? '', created_at: n.createdAt.toISOString() })),
    can_cancel: canMove(o.status, 'cancelled', 'customer') && !hasOpenFlag.has(o.id),
    items: items
      .filter(({ item: i }) => i.orderId === o.id)
      .map(({ item: i, model }) => ({
        item_id: i.id,
        file_name: i.fileName,
        unique_file_path: i.modelId,
        preview_image_url: i.modelId
          ? previewInColor(`/api/models/${encodeURIComponent(i.modelId)}/preview.png`, i.color)
          : null,
        color: i.color,
        strength: i.strength,
        cost: dollars(i.unitPriceCents),
        line_total: dollars(i.lineTotalCents),
        quantity: i.quantity,
        notes: i.notes,
        dimensions: model ? { x: mm(model.dimX), y: mm(model.dimY), z: mm(model.dimZ) } : null,
        scale: model?.scale ?? 1,
      })),
  }));
}
