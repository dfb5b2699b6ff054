import { and, asc, isNotNull, lte, notInArray } from 'drizzle-orm';
import type { LateOrder } from '../../../shared/admin-dashboard.ts';
import type { OrderStatus } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { Calendar } from '../../shipping/calendar.ts';
import { isLate } from '../orders/list-orders.ts';

// The orders that will ship late: the board's Late (not shipped, cancelled or failed, and the ship-by day
// is over), and those due today once the shop's cut-off has passed (today's work is planned by then).

const SHOWN = 20;

export async function lateOrders(db: Db, now: Date, cal: Calendar) {
  const today = cal.shopDate(now);
  const [hours, minutes] = cal.settings.cutoff.split(':').map(Number);
  const pastCutoff = cal.shopTime(now) >= hours! * 60 + minutes!;
  const rows = await db
    .select({ id: orders.id, status: orders.status, shipBy: orders.shipBy })
    .from(orders)
    .where(
      and(
        notInArray(orders.status, ['shipped', 'cancelled', 'failed']),
        isNotNull(orders.shipBy),
        lte(orders.shipBy, today),
      ),
    )
    .orderBy(asc(orders.shipBy), asc(orders.id));
  const late: LateOrder[] = [];
  for (const r of rows) {
    const reason = isLate(r, now) ? 'late' : pastCutoff && r.shipBy === today ? 'today' : null;
    if (reason) late.push({ id: r.id, status: r.status as OrderStatus, shipBy: r.shipBy!, reason });
  }
  return { count: late.length, cutoff: cal.settings.cutoff, orders: late.slice(0, SHOWN) };
}
