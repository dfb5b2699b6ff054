import Holidays from 'date-holidays';
import type { ProductionSettings } from './production-settings.ts';

// The shop's working days, from its production settings: its weekdays, less the public holidays of its
// country (and region) as `date-holidays` knows them (substitute days included), less its own closures,
// plus the holidays it works anyway. Days are calendar days in the shop's time zone, written YYYY-MM-DD
// and computed at noon UTC, so no time zone or daylight-saving change ever moves one.

export type Calendar = {
  readonly settings: ProductionSettings;
  isWorkingDay(day: string): boolean;
  /** `n` working days after `day` (n = 0: `day` itself, working or not). */
  addWorkingDays(day: string, n: number): string;
  /** The first working day after `day`. */
  nextWorkingDay(day: string): string;
  /** The calendar date of an instant in the shop's time zone. */
  shopDate(at: Date): string;
  /** Minutes since the shop's local midnight at an instant (0..1439). */
  shopTime(at: Date): number;
};

/** No settings leave more than this many days in a row without a working day (one is asked each week). */
const MAX_CLOSED_RUN = 3660;

const DAY_MS = 86_400_000;

const formatDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Noon UTC of a day; a RangeError unless `day` is a real calendar day, YYYY-MM-DD. */
function parseDay(day: string): number {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T12:00:00Z`) : Number.NaN;
  if (Number.isNaN(time) || formatDay(time) !== day) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return time;
}

/** Throws a RangeError unless `day` is a real calendar day, YYYY-MM-DD. */
export function assertDay(day: string): void {
  parseDay(day);
}

/**
 * Public holidays by country and region, for the whole process: the library takes tens of milliseconds
 * to build a year, and its data never changes while the process runs, so each is built once.
 */
type HolidaySource = { holidays: Holidays; lists: Map<number, string[]>; years: Map<number, Set<string>> };
const sources = new Map<string, HolidaySource>();

function holidaySource(country: string, region: string | undefined): HolidaySource {
  const key = `${country}/${region ?? ''}`;
  let source = sources.get(key);
  if (!source) {
    const holidays = new Holidays(region ? { country, state: region } : { country });
    source = { holidays, lists: new Map(), years: new Map() };
    sources.set(key, source);
  }
  return source;
}

/** The days of the public holidays the library lists for `year` (a substitute may fall outside it). */
function publicDays(source: HolidaySource, year: number): string[] {
  let days = source.lists.get(year);
  if (!days) {
    days = source.holidays
      .getHolidays(year)
      .filter((h) => h.type === 'public')
      .map((h) => h.date.slice(0, 10));
    source.lists.set(year, days);
  }
  return days;
}

/** A year's public holiday days, wherever the library lists them (New Year's substitute is on Dec 31). */
function holidaysIn(source: HolidaySource, year: number): Set<string> {
  let set = source.years.get(year);
  if (!set) {
    const prefix = `${year}-`;
    const near = [year - 1, year, year + 1].flatMap((y) => publicDays(source, y));
    set = new Set(near.filter((d) => d.startsWith(prefix)));
    source.years.set(year, set);
  }
  return set;
}

export function createCalendar(settings: ProductionSettings): Calendar {
  const weekdays = new Set(settings.workingDays);
  const closures = new Set(settings.holidays.extraDays);
  const worked = new Set(settings.holidays.workingDays);
  const { country, region } = settings.holidays;
  const source = country === '' ? null : holidaySource(country, region);

  const isWorkingDay = (day: string) => {
    const date = new Date(parseDay(day));
    if (!weekdays.has(date.getUTCDay()) || closures.has(day)) return false;
    return worked.has(day) || source === null || !holidaysIn(source, date.getUTCFullYear()).has(day);
  };

  const nextWorkingDay = (day: string) => {
    let time = parseDay(day);
    for (let i = 0; i < MAX_CLOSED_RUN; i++) {
      time += DAY_MS;
      const next = formatDay(time);
      if (isWorkingDay(next)) return next;
    }
    throw new Error(`No working day within ${MAX_CLOSED_RUN} days after ${day}.`);
  };

  const addWorkingDays = (day: string, n: number) => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Working days must be a whole number >= 0: ${n}`);
    parseDay(day);
    let result = day;
    for (let i = 0; i < n; i++) result = nextWorkingDay(result);
    return result;
  };

  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: settings.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const partsOf = (at: Date) => {
    const parts = format.formatToParts(at);
    return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  };

  return {
    settings,
    isWorkingDay,
    addWorkingDays,
    nextWorkingDay,
    shopDate: (at) => {
      const part = partsOf(at);
      return `${part('year')}-${part('month')}-${part('day')}`;
    },
    shopTime: (at) => {
      const part = partsOf(at);
      return Number(part('hour')) * 60 + Number(part('minute'));
    },
  };
}
