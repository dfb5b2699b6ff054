import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { ProductionGroup, ProductionItem, ProductionSheet } from '../../../shared/admin.ts';
import { COLORS, colorName, strengthLabel } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { models, orderItemEvents, orderItems, orders } from '../../db/schema.ts';
import { isLate } from './list-orders.ts';
import { previewUrl } from './order-detail.ts';

// GET /api/admin/production: what the printers have to make, as batches a printer can run together (one
// color and strength): every item of a queued or printing order not yet printed (a reprint puts one back),
// the batches with the most pieces first, their items by ship-by day then order. Two queries.

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One key per color, whether a line named it by hex or by name ('blue'). */
function colorKey(color: string): string {
  const name = colorName(color).toLowerCase();
  return COLORS.find((c) => c.name.toLowerCase() === name)?.hex ?? color.trim().toLowerCase();
}

export async function productionSheet(db: Db, now: Date): Promise<ProductionSheet> {
  const rows = await db
    .select({
      item: orderItems,
      order: { id: orders.id, status: orders.status, shipBy: orders.shipBy },
      model: models,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(models, eq(models.id, orderItems.modelId))
    .where(and(inArray(orders.status, ['queued', 'printing']), isNull(orderItems.printedAt)));
  const reprinted = rows.filter((r) => r.item.reprints > 0).map((r) => r.item.id);
  const reasons = new Map<number, string | null>();
  if (reprinted.length > 0) {
    const events = await db
      .select({ itemId: orderItemEvents.orderItemId, reason: orderItemEvents.reason })
      .from(orderItemEvents)
      .where(and(inArray(orderItemEvents.orderItemId, reprinted), eq(orderItemEvents.kind, 'reprint')))
      .orderBy(desc(orderItemEvents.createdAt), desc(orderItemEvents.id));
    for (const e of events) if (!reasons.has(e.itemId)) reasons.set(e.itemId, e.reason);
  }

  const groups = new Map<string, ProductionGroup>();
  for (const { item, order, model } of rows) {
    const color = colorKey(item.color);
    const key = `${color}|${item.strength}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        color,
        colorName: colorName(item.color),
        strength: item.strength,
        strengthLabel: strengthLabel(item.strength),
        pieces: 0,
        hours: 0,
        grams: 0,
        items: [],
        queuedOrderIds: [],
      };
      groups.set(key, group);
    }
    group.pieces += item.quantity;
    group.hours += (item.printHours ?? 0) * item.quantity;
    group.grams += (item.grams ?? 0) * item.quantity;
    if (order.status === 'queued' && !group.queuedOrderIds.includes(order.id))
      group.queuedOrderIds.push(order.id);
    const entry: ProductionItem = {
      orderId: order.id,
      itemId: item.id,
      orderStatus: order.status as ProductionItem['orderStatus'],
      fileName: item.fileName,
      modelId: item.modelId,
      previewUrl: previewUrl(item.modelId),
      quantity: item.quantity,
      dimensions: model
        ? { x: round(model.dimX, 3), y: round(model.dimY, 3), z: round(model.dimZ, 3) }
        : null,
      notes: item.notes,
      reprints: item.reprints,
      reprintReason: item.reprints > 0 ? (reasons.get(item.id) ?? null) : null,
      shipBy: order.shipBy,
      late: isLate(order, now),
      grams: item.grams,
      printHours: item.printHours,
    };
    group.items.push(entry);
  }

  const byShipBy = (a: ProductionItem, b: ProductionItem) =>
    (a.shipBy ?? '9999-12-31').localeCompare(b.shipBy ?? '9999-12-31') ||
    a.orderId - b.orderId ||
    a.itemId - b.itemId;
  return {
    groups: [...groups.values()]
      .map((g) => ({
        ...g,
        hours: round(g.hours, 2),
        grams: round(g.grams, 1),
        items: g.items.sort(byShipBy),
        queuedOrderIds: g.queuedOrderIds.sort((a, b) => a - b),
      }))
      .sort((a, b) => b.pieces - a.pieces || a.key.localeCompare(b.key)),
  };
}
