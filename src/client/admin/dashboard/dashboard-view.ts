import { type AdminDashboard, DASHBOARD_WEEKS } from '../../../shared/admin-dashboard.ts';
import { colorName, colorSwatch, statusLabel, strengthLabel } from '../../../shared/catalog.ts';
import { formatCents, formatNumber } from '../../../shared/format.ts';

// What the dashboard draws and writes, from the server's figures: the rows of each chart (and of its table
// for screen readers), the headline figures and the sentences around them. No chart library here.

/** The periods the page offers; the URL's ?weeks= may name any other from 1 to 52. */
export const WEEK_CHOICES = [4, 8, 12, 26, 52] as const;

/** The weeks a query string asks for: a whole number from 1 to 52, else the default 12. */
export function readWeeks(params: URLSearchParams): number {
  const weeks = Number(params.get('weeks') ?? DASHBOARD_WEEKS.default);
  return Number.isInteger(weeks) && weeks >= DASHBOARD_WEEKS.min && weeks <= DASHBOARD_WEEKS.max
    ? weeks
    : DASHBOARD_WEEKS.default;
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A week's Monday 'YYYY-MM-DD' as 'Mar 9' (the calendar day itself, whatever the browser's zone). */
export function weekLabel(start: string): string {
  const time = Date.parse(`${start}T12:00:00Z`);
  return Number.isNaN(time) ? start : shortDay.format(time);
}

/** 'Mar 9, 2026' */
export function dayLabel(day: string): string {
  const time = Date.parse(`${day}T12:00:00Z`);
  return Number.isNaN(time) ? day : longDay.format(time);
}

const compact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** An axis tick: '$1.2K', '$300'. */
export const compactDollars = (dollars: number) => compact.format(dollars);

export type WeekRow = { start: string; label: string; revenue: number; revenueText: string; orders: number };

export function weekRows(d: AdminDashboard): WeekRow[] {
  return d.weeks.map((w) => ({
    start: w.start,
    label: weekLabel(w.start),
    revenue: w.revenueCents / 100,
    revenueText: formatCents(w.revenueCents),
    orders: w.orders,
  }));
}

/** This week (the last of the list) and the one before it, if asked for. */
export function headline(d: AdminDashboard) {
  const thisWeek = d.weeks.at(-1) ?? { start: d.today, revenueCents: 0, orders: 0 };
  const lastWeek = d.weeks.length > 1 ? d.weeks.at(-2)! : null;
  return { thisWeek, lastWeek };
}

export function statusRows(d: AdminDashboard) {
  return d.byStatus.map((s) => ({ status: s.status, label: statusLabel(s.status), orders: s.orders }));
}

export function colorRows(d: AdminDashboard) {
  return d.colors.map((c) => ({ name: colorName(c.color), swatch: colorSwatch(c.color), pieces: c.pieces }));
}

export function strengthRows(d: AdminDashboard) {
  return d.strengths.map((s) => ({
    label: `${strengthLabel(s.strength)} (${s.strength}/5)`,
    pieces: s.pieces,
  }));
}

/** 'the last 12 weeks', 'this week' */
export function periodText(weeks: number): string {
  return weeks === 1 ? 'this week' : `the last ${weeks} weeks`;
}

/** What the figures do with test orders (paid through the simulator), or null when there were none. */
export function testOrdersNote(d: AdminDashboard): string | null {
  const n = d.testOrders.inWeeks;
  if (d.testOrders.included)
    return n === 0
      ? null
      : `The shop has no real paid order yet, so its ${n === 1 ? 'test order is' : `${n} test orders are`} counted (paid through the simulator: no money was taken).`;
  if (n === 0) return null;
  return `${n === 1 ? '1 test order' : `${n} test orders`} (paid through the simulator: no money was taken) ${n === 1 ? 'is' : 'are'} left out of these figures.`;
}

/** Hours as the queue card shows them: '9.5 h', '0 h'. */
export function queueText(hours: number): string {
  if (!Number.isFinite(hours) || hours <= 0) return '0 h';
  return hours < 10 ? `${Math.round(hours * 10) / 10} h` : `${formatNumber(hours, 0)} h`;
}

/** '14:00' as '2 pm', '09:30' as '9:30 am'. */
export function cutoffText(cutoff: string): string {
  const m = /^(\d{2}):(\d{2})$/.exec(cutoff);
  if (!m) return cutoff;
  const hours = Number(m[1]);
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${h12}${m[2] === '00' ? '' : `:${m[2]}`} ${hours < 12 ? 'am' : 'pm'}`;
}
