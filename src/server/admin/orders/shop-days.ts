import { HttpError } from '../../plugins/error-handler.ts';
import { SHOP_TIME_ZONE } from '../../shipping/ship-by.ts';

// The board's date range is in shop days (America/Chicago, like the ship-by date): `from` and `to` are
// both included, so a range is [start of `from`, start of the day after `to`) as instants.

/** How far the zone's wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant a shop day (YYYY-MM-DD) starts; 400 for a day that does not exist (2025-02-30). */
export function shopDayStart(day: string, timeZone = SHOP_TIME_ZONE): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnightUtc) || new Date(midnightUtc).toISOString().slice(0, 10) !== day)
    throw new HttpError(400, 'Dates are YYYY-MM-DD.');
  // Twice: the offset at the first guess may differ from the one at the day's start (a DST change between).
  let at = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  at = midnightUtc - zoneOffsetMs(at, timeZone);
  return new Date(at);
}

/** The instant the shop day after `day` starts (the end of `day`, excluded). */
export function shopDayEnd(day: string, timeZone = SHOP_TIME_ZONE): Date {
  shopDayStart(day, timeZone); // refuses a day that does not exist
  const next = new Date(Date.parse(`${day}T12:00:00Z`) + 24 * 3600_000).toISOString().slice(0, 10);
  return shopDayStart(next, timeZone);
}
