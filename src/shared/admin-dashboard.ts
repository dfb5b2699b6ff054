import { z } from 'zod';
import { ORDER_STATUSES } from './catalog.ts';

// The back office's dashboard (docs/api.md "Admin"): how the shop is doing, in figures. Money is whole
// cents; weeks are shop weeks (Monday to Sunday in the shop's time zone), named by their Monday.

export const DASHBOARD_WEEKS = { min: 1, max: 52, default: 12 } as const;
const weeksMessage = `Weeks is a whole number from ${DASHBOARD_WEEKS.min} to ${DASHBOARD_WEEKS.max}.`;

/** GET /api/admin/dashboard?weeks= */
export const adminDashboardQuery = z.object({
  weeks: z.coerce
    .number(weeksMessage)
    .int(weeksMessage)
    .min(DASHBOARD_WEEKS.min, weeksMessage)
    .max(DASHBOARD_WEEKS.max, weeksMessage)
    .default(DASHBOARD_WEEKS.default),
});

/** The statuses whose orders count as sold: paid and every step after it. */
export const SOLD_STATUSES = ['paid', 'queued', 'printing', 'shipped'] as const;

const dashboardWeek = z.object({
  /** The week's Monday, YYYY-MM-DD. */
  start: z.string(),
  /** What its orders' customers paid (items, shipping, tax) less what was refunded of them. */
  revenueCents: z.number(),
  /** Orders paid that week that are paid, queued, printing or shipped now. */
  orders: z.number(),
});
export type DashboardWeek = z.infer<typeof dashboardWeek>;

export const lateOrder = z.object({
  id: z.number(),
  status: z.enum(ORDER_STATUSES),
  shipBy: z.string(),
  /** 'late': the ship-by day is over (the board's Late); 'today': due today and the cut-off has passed. */
  reason: z.enum(['late', 'today']),
});
export type LateOrder = z.infer<typeof lateOrder>;

export const adminDashboard = z.object({
  /** The shop's time zone and today's date in it. */
  timeZone: z.string(),
  today: z.string(),
  /** Oldest first; the last is this (unfinished) week. */
  weeks: z.array(dashboardWeek),
  totals: z.object({
    revenueCents: z.number(),
    orders: z.number(),
    /** revenue / orders, rounded to the cent; 0 without orders. */
    averageOrderCents: z.number(),
  }),
  /** Orders placed in these weeks, by their status now (every status, 0 included). */
  byStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), orders: z.number() })),
  /** Printing hours of the paid, queued and printing pieces not printed yet (the ship-by dates' queue). */
  queueHours: z.number(),
  /** Orders that will ship late: not shipped, and their ship-by day is over, or it is today past the cut-off. */
  late: z.object({
    count: z.number(),
    /** The shop's daily cut-off, HH:MM. */
    cutoff: z.string(),
    /** The first 20, oldest ship-by day first. */
    orders: z.array(lateOrder),
  }),
  /** Pieces of the sold orders paid in these weeks, most first. */
  colors: z.array(z.object({ color: z.string(), pieces: z.number() })),
  strengths: z.array(z.object({ strength: z.number(), pieces: z.number() })),
  /**
   * Test orders (paid through the simulator, no money taken) are left out of every figure above but the
   * queue and the late orders, unless the shop has no real paid order at all (then they are all it has and
   * are counted). `inWeeks`: the sold test orders paid in these weeks.
   */
  testOrders: z.object({ included: z.boolean(), inWeeks: z.number() }),
});
export type AdminDashboard = z.infer<typeof adminDashboard>;
