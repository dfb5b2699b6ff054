import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { OrderPayload } from '../../shared/orders.ts';
import type { Db } from '../db/client.ts';
import { orderItems, orders } from '../db/schema.ts';

const dollars = (cents: number) => Math.round(cents) / 100;

/** A user's orders, newest first, shaped as docs/api.md (GET /api/get_orders.php). */
export async function listOrdersForUser(db: Db, userId: number, now: Date): Promise<OrderPayload[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((o) => o.id),
      ),
    )
    .orderBy(asc(orderItems.id));
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
    // The hosted checkout, while it can still be paid: My Orders offers 'Complete payment'.
    payment_url:
      o.status === 'pending' &&
      o.paymentUrl &&
      o.paymentExpiresAt &&
      o.paymentExpiresAt.getTime() > now.getTime()
        ? o.paymentUrl
        : null,
    items: items
      .filter((i) => i.orderId === o.id)
      .map((i) => ({
        item_id: i.id,
        file_name: i.fileName,
        unique_file_path: i.modelId,
        preview_image_url: i.modelId ? `/api/models/${encodeURIComponent(i.modelId)}/preview.png` : null,
        color: i.color,
        strength: i.strength,
        cost: dollars(i.unitPriceCents),
        line_total: dollars(i.lineTotalCents),
        quantity: i.quantity,
        notes: i.notes,
      })),
  }));
}
