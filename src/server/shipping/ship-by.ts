import { assertDay, type Calendar, createCalendar } from './calendar.ts';
import { DEFAULT_PRODUCTION, type ProductionSettings } from './production-settings.ts';

// When an order leaves the shop and when it arrives (docs/domain.md "Shipping"), from the print queue and
// the shop's working days. Pure: the caller reads the clock, the queue and the settings.

/** The default shop time zone (Wisconsin), for callers without the production settings at hand. */
export const SHOP_TIME_ZONE = DEFAULT_PRODUCTION.timeZone;

/** However long the queue, no order is promised later than this (about a year and a half). */
export const MAX_LEAD_WORKING_DAYS = 400;

/** The calendar date (YYYY-MM-DD) of an instant in a time zone (the shop's by default): the admin's days. */
export function shopDate(at: Date, timeZone = SHOP_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * The shop day production of an order paid at `now` starts: the shop's date when that is a working day
 * and the shop-local time is before the cut-off, else the next working day.
 */
export function productionStart(now: Date, cal: Calendar): string {
  const today = cal.shopDate(now);
  const [hours, minutes] = cal.settings.cutoff.split(':').map(Number);
  const beforeCutoff = cal.shopTime(now) < hours! * 60 + minutes!;
  return beforeCutoff && cal.isWorkingDay(today) ? today : cal.nextWorkingDay(today);
}

/** NaN, negative: nothing to print. */
const hoursOrZero = (hours: number) => (Number.isNaN(hours) || hours < 0 ? 0 : hours);

/**
 * The ship-by day (YYYY-MM-DD) of an order paid at `now`:
 *
 *   productionStart(now) + N working days,  N = max(1, ceil((queueHours + ownHours) / (printers * hoursPerDay)))
 *
 * i.e. the whole queue ahead (paid, queued and printing pieces not yet printed) and this order printed
 * at the shop's daily capacity, then at least one working day to pack and ship; N is capped at
 * MAX_LEAD_WORKING_DAYS.
 */
export function shipByFor(input: {
  now: Date;
  queueHours: number;
  ownHours: number;
  production: ProductionSettings;
  calendar?: Calendar;
}): string {
  const { production } = input;
  const cal = input.calendar ?? createCalendar(production);
  const hours = hoursOrZero(input.queueHours) + hoursOrZero(input.ownHours);
  const perDay = production.printers * production.hoursPerDay;
  // The epsilon keeps a sum of fractions (0.1 + 0.2 hours) from tipping a whole day into the next.
  const days = Math.min(MAX_LEAD_WORKING_DAYS, Math.max(1, Math.ceil(hours / perDay - 1e-9)));
  return cal.addWorkingDays(productionStart(input.now, cal), days);
}

/**
 * When a parcel leaving on `shipBy` arrives: `min` to `max` working days later (carriers do not deliver
 * on the shop's non-working days; 0 transit days: the ship-by day itself).
 */
export function arrivalWindow(
  shipBy: string,
  transit: { min: number; max: number },
  cal: Calendar,
): { from: string; to: string } {
  return { from: cal.addWorkingDays(shipBy, transit.min), to: cal.addWorkingDays(shipBy, transit.max) };
}

/**
 * Working days from the shop's date of `now` to `day` (0 when `day` is today or past): what Stripe's
 * delivery_estimate counts from today.
 */
/**
 * Monday-to-Friday days from the shop's date of `now` up to `day`: what Stripe's `business_day` delivery
 * estimate counts (it knows no holidays), so its page promises no earlier arrival than the cart.
 */
export function weekdaysUntil(now: Date, day: string, cal: Calendar): number {
  assertDay(day);
  let time = Date.parse(`${cal.shopDate(now)}T12:00:00Z`);
  const end = Date.parse(`${day}T12:00:00Z`);
  let count = 0;
  while (time < end) {
    time += 86_400_000;
    const weekday = new Date(time).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

export function businessDaysUntil(now: Date, day: string, cal: Calendar): number {
  assertDay(day);
  let current = cal.shopDate(now);
  let count = 0;
  while (current < day) {
    current = cal.nextWorkingDay(current);
    if (current <= day) count++;
  }
  return count;
}
