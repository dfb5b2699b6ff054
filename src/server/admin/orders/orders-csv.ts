import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import { colorName, strengthLabel } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { type OrderItem, orderItems, orders, users } from '../../db/schema.ts';
import { isTestOrder } from '../../orders/order-mails.ts';
import { csvLine, moneyCell, numberCell, textCell } from './csv-cells.ts';
import { filterCondition, type OrdersFilter } from './order-filter.ts';

// GET /api/admin/orders.csv: the board's filtered list (every page) for the accountant, one row per item,
// newest order first (by number). Read a page of orders at a time (keyset on the id, so orders placed
// meanwhile neither repeat nor shift a row) and written as it is read: a big shop is never held in memory.

export const CSV_PAGE = 200;

export const CSV_HEADER = [
  'Order',
  'Placed at',
  'Paid at',
  'Status',
  'Test order',
  'Customer name',
  'Username',
  'Email',
  'Ship-to country',
  'Ship-to state',
  'Ship-to postal code',
  'Item',
  'File name',
  'Color',
  'Strength',
  'Quantity',
  'Unit price',
  'Line total',
  'Order subtotal',
  'Shipping method',
  'Shipping',
  'Tax',
  'Order total',
  'Amount refunded',
  'Currency',
  'Carrier',
  'Tracking number',
];

async function pageOf(db: Db, filter: OrdersFilter, before: number | null) {
  return db
    .select({ order: orders, username: users.username, accountEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(filterCondition(filter), before === null ? undefined : lt(orders.id, before)))
    .orderBy(desc(orders.id))
    .limit(CSV_PAGE);
}

type Row = Awaited<ReturnType<typeof pageOf>>[number];

function rowLine({ order: o, username, accountEmail }: Row, item: OrderItem | undefined): string {
  return csvLine([
    numberCell(o.id),
    textCell(o.createdAt.toISOString()),
    textCell(o.paidAt?.toISOString()),
    textCell(o.status),
    isTestOrder(o) ? 'yes' : 'no',
    textCell(o.shippingName),
    textCell(username),
    textCell(o.customerEmail ?? accountEmail),
    textCell(o.shippingCountry),
    textCell(o.shippingState),
    textCell(o.shippingPostalCode),
    numberCell(item?.id),
    textCell(item?.fileName),
    textCell(item ? colorName(item.color) : ''),
    textCell(item ? strengthLabel(item.strength) : ''),
    numberCell(item?.quantity),
    moneyCell(item?.unitPriceCents),
    moneyCell(item?.lineTotalCents),
    moneyCell(o.subtotalCents),
    textCell(o.shippingMethod),
    moneyCell(o.shippingCents),
    moneyCell(o.taxCents),
    moneyCell(o.totalCents),
    moneyCell(o.amountRefundedCents),
    textCell(o.currency.toUpperCase()),
    textCell(o.carrier),
    textCell(o.trackingNumber),
  ]);
}

/** The CSV's text, a page of orders at a time (a UTF-8 BOM first, so that spreadsheets read it as UTF-8). */
export async function* ordersCsv(db: Db, filter: OrdersFilter): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(CSV_HEADER.map(textCell))}`;
  let before: number | null = null;
  for (;;) {
    const page = await pageOf(db, filter, before);
    if (page.length === 0) return;
    const items = await db
      .select()
      .from(orderItems)
      .where(
        inArray(
          orderItems.orderId,
          page.map((r) => r.order.id),
        ),
      )
      .orderBy(asc(orderItems.id));
    const byOrder = new Map<number, OrderItem[]>();
    for (const item of items) {
      const lines = byOrder.get(item.orderId);
      if (lines) lines.push(item);
      else byOrder.set(item.orderId, [item]);
    }
    let chunk = '';
    for (const row of page) {
      const lines = byOrder.get(row.order.id) ?? [];
      if (lines.length === 0) chunk += rowLine(row, undefined);
      for (const item of lines) chunk += rowLine(row, item);
    }
    yield chunk;
    if (page.length < CSV_PAGE) return;
    before = page[page.length - 1]!.order.id;
  }
}
