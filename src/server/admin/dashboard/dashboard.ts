import type { AdminDashboard } from '../../../shared/admin-dashboard.ts';
import { ORDER_STATUSES } from '../../../shared/catalog.ts';
import type { Db } from '../../db/client.ts';
import { createCalendar } from '../../shipping/calendar.ts';
import { queueHours } from '../../shipping/queue-load.ts';
import { loadProductionSettings } from '../../shipping/settings-repository.ts';
import { shopDayStart } from '../orders/shop-days.ts';
import { lateOrders } from './late-orders.ts';
import { hasRealOrders, ordersByStatus, piecesSold, soldByWeek, testOrdersSince } from './sold-figures.ts';
import { weekStarts } from './weeks.ts';

// GET /api/admin/dashboard: the figures of the last `weeks` shop weeks (this one included), the print
// queue and the late orders now. Test orders count only while the shop has no real paid order.

export async function dashboardFigures(db: Db, weeks: number, now: Date): Promise<AdminDashboard> {
  const production = await loadProductionSettings(db);
  const cal = createCalendar(production);
  const timeZone = production.timeZone;
  const today = cal.shopDate(now);
  const starts = weekStarts(today, weeks);
  const since = shopDayStart(starts[0]!, timeZone);
  const scope = { since, timeZone, includeTests: !(await hasRealOrders(db)) };

  const [byWeek, byStatus, pieces, queue, late, testInWeeks] = await Promise.all([
    soldByWeek(db, scope),
    ordersByStatus(db, scope),
    piecesSold(db, scope),
    queueHours(db),
    lateOrders(db, now, cal),
    testOrdersSince(db, since),
  ]);

  const weekOf = new Map(byWeek.map((w) => [w.week, w]));
  const weekRows = starts.map((start) => ({
    start,
    revenueCents: weekOf.get(start)?.revenueCents ?? 0,
    orders: weekOf.get(start)?.orders ?? 0,
  }));
  const revenueCents = weekRows.reduce((sum, w) => sum + w.revenueCents, 0);
  const orderCount = weekRows.reduce((sum, w) => sum + w.orders, 0);
  const statusCount = new Map(byStatus.map((s) => [s.status, s.orders]));

  return {
    timeZone,
    today,
    weeks: weekRows,
    totals: {
      revenueCents,
      orders: orderCount,
      averageOrderCents: orderCount === 0 ? 0 : Math.round(revenueCents / orderCount),
    },
    byStatus: ORDER_STATUSES.map((status) => ({ status, orders: statusCount.get(status) ?? 0 })),
    queueHours: Math.round(queue * 10) / 10,
    late,
    colors: pieces.colors,
    strengths: pieces.strengths,
    testOrders: { included: scope.includeTests, inWeeks: testInWeeks },
  };
}
