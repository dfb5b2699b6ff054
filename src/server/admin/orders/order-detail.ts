import { asc, eq } from 'drizzle-orm';
import type { AdminFlag, AdminOrderDetail, AdminOrderItem, AdminRefund } from '../../../shared/admin.ts';
import { trackingUrl } from '../../../shared/carriers.ts';
import { SHIPPING_COUNTRIES } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { models, type Order, orderFlags, orderItems, orders, refunds, users } from '../../db/schema.ts';
import { isTestOrder } from '../../orders/order-mails.ts';
import { refundableCents } from '../../orders/refunds.ts';
import { movesFrom, nextStep } from '../../orders/state-machine.ts';
import { isLate } from './list-orders.ts';
import { orderTimeline } from './timeline.ts';

// GET /api/admin/orders/:id: everything staff need about one order, in a fixed number of queries.

type Status = AdminOrderDetail['status'];
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const shipToOf = (v: string | null): AdminOrderDetail['shipTo'] =>
  (SHIPPING_COUNTRIES as readonly string[]).includes(v ?? '') ? (v as AdminOrderDetail['shipTo']) : null;

export function previewUrl(modelId: string | null): string | null {
  return modelId ? `/api/models/${encodeURIComponent(modelId)}/preview.png` : null;
}

/** Where staff may move the order now: while a blocking flag is open, only to cancelled. */
export function allowedMoves(status: string, blockingFlagOpen: boolean): Status[] {
  const moves = movesFrom(status, 'staff');
  return blockingFlagOpen ? moves.filter((s) => s === 'cancelled') : moves;
}

async function orderItemsOf(db: Db, orderId: number): Promise<AdminOrderItem[]> {
  const rows = await db
    .select({ item: orderItems, model: models })
    .from(orderItems)
    .leftJoin(models, eq(models.id, orderItems.modelId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.id));
  return rows.map(({ item, model }) => ({
    id: item.id,
    modelId: item.modelId,
    fileName: item.fileName,
    previewUrl: previewUrl(item.modelId),
    color: item.color,
    strength: item.strength,
    quantity: item.quantity,
    notes: item.notes,
    unitCents: item.unitPriceCents,
    lineCents: item.lineTotalCents,
    discountPercent:
      item.unitPriceCents * item.quantity > 0
        ? round(100 * (1 - item.lineTotalCents / (item.unitPriceCents * item.quantity)), 1)
        : 0,
    dimensions: model ? { x: round(model.dimX, 3), y: round(model.dimY, 3), z: round(model.dimZ, 3) } : null,
    volumeCm3: model ? round(model.volumeMm3 / 1000, 4) : null,
    grams: item.grams,
    printHours: item.printHours,
    printedAt: iso(item.printedAt),
    reprints: item.reprints,
    correctedShells: model?.correctedShells ?? 0,
  }));
}

async function refundsOf(db: Db, orderId: number): Promise<AdminRefund[]> {
  const rows = await db
    .select({ r: refunds, actorName: users.username })
    .from(refunds)
    .leftJoin(users, eq(users.id, refunds.actorUserId))
    .where(eq(refunds.orderId, orderId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  return rows.map(({ r, actorName }) => ({
    id: r.id,
    amountCents: r.amountCents,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    actor: r.actor,
    actorName,
    itemId: r.orderItemId,
    providerRefundId: r.providerRefundId,
    createdAt: r.createdAt.toISOString(),
  }));
}

async function flagsOf(db: Db, orderId: number): Promise<AdminFlag[]> {
  const rows = await db
    .select({ f: orderFlags, resolvedBy: users.username })
    .from(orderFlags)
    .leftJoin(users, eq(users.id, orderFlags.resolvedBy))
    .where(eq(orderFlags.orderId, orderId))
    .orderBy(asc(orderFlags.id));
  return rows.map(({ f, resolvedBy }) => ({
    id: f.id,
    kind: f.kind,
    details: f.details,
    blocking: f.blocking,
    createdAt: f.createdAt.toISOString(),
    resolvedAt: iso(f.resolvedAt),
    resolvedBy: f.resolvedAt ? resolvedBy : null,
    resolutionNote: f.resolutionNote,
  }));
}

/** The order as the detail page shows it, or null when there is none. */
export async function orderDetail(db: Db, orderId: number, now: Date): Promise<AdminOrderDetail | null> {
  const [row] = await db
    .select({ order: orders, username: users.username, accountEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const o: Order = row.order;
  const [items, refundRows, flags, timeline, refundable] = await Promise.all([
    orderItemsOf(db, o.id),
    refundsOf(db, o.id),
    flagsOf(db, o.id),
    orderTimeline(db, o.id),
    refundableCents(db, o),
  ]);
  const allowed = allowedMoves(
    o.status,
    flags.some((f) => f.blocking && f.resolvedAt === null),
  );
  const next = nextStep(o.status);
  return {
    id: o.id,
    status: o.status as Status,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    currency: o.currency,
    subtotalCents: o.subtotalCents,
    shippingCents: o.shippingCents,
    taxCents: o.taxCents,
    taxLines: o.taxLines ?? [],
    totalCents: o.totalCents,
    amountPaidCents: o.amountPaidCents,
    amountRefundedCents: o.amountRefundedCents,
    refundableCents: refundable,
    testMode: isTestOrder(o),
    shipTo: shipToOf(o.shipTo),
    shipBy: o.shipBy,
    arrivesFrom: o.arrivesFrom,
    arrivesBy: o.arrivesBy,
    late: isLate(o, now),
    customer: {
      userId: o.userId,
      username: row.username,
      email: o.customerEmail ?? row.accountEmail,
      name: o.shippingName,
    },
    shipping: {
      name: o.shippingName,
      line1: o.shippingLine1,
      line2: o.shippingLine2,
      city: o.shippingCity,
      state: o.shippingState,
      postalCode: o.shippingPostalCode,
      country: o.shippingCountry,
      method: o.shippingMethod,
    },
    carrier: o.carrier,
    trackingNumber: o.trackingNumber,
    trackingUrl: trackingUrl(o.carrier, o.trackingNumber),
    paidAt: iso(o.paidAt),
    queuedAt: iso(o.queuedAt),
    printingAt: iso(o.printingAt),
    shippedAt: iso(o.shippedAt),
    cancelledAt: iso(o.cancelledAt),
    cancelReason: o.cancelReason,
    items,
    payment: {
      provider: o.paymentProvider,
      sessionId: o.paymentSessionId,
      paymentIntentId: o.paymentIntentId,
      chargeId: o.paymentChargeId,
    },
    refunds: refundRows,
    flags,
    timeline,
    allowedStatuses: allowed,
    nextStatus: next && allowed.includes(next) ? next : null,
  };
}
