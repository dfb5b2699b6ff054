// The dashboard's weeks: shop weeks, Monday to Sunday in the shop's time zone, each named by its Monday
// (YYYY-MM-DD). Days are counted at noon UTC, so no daylight-saving change moves one.

const DAY_MS = 86_400_000;

function noonOf(day: string): number {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T12:00:00Z`) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day)
    throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return time;
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The Monday of the week `day` is in. */
export function mondayOf(day: string): string {
  const noon = noonOf(day);
  const sinceMonday = (new Date(noon).getUTCDay() + 6) % 7;
  return dayOf(noon - sinceMonday * DAY_MS);
}

/** The Mondays of the last `count` weeks up to the one `today` is in, oldest first. */
export function weekStarts(today: string, count: number): string[] {
  const last = noonOf(mondayOf(today));
  return Array.from({ length: count }, (_, n) => dayOf(last - (count - 1 - n) * 7 * DAY_MS));
}
