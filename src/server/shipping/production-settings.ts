import Holidays from 'date-holidays';
import { z } from 'zod';

// What the ship-by date is computed from (docs/domain.md "Shipping"): how much the printers make a day,
// which days the shop works, the daily cut-off and the public holidays it closes for. Defaults here,
// overridden key by key by the stored settings (like src/server/pricing/settings.ts).

/** A real calendar day, YYYY-MM-DD (2026-02-30 is refused). */
export const calendarDay = z.string().superRefine((day, ctx) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
    ctx.addIssue({ code: 'custom', message: 'A day is written YYYY-MM-DD.' });
  } else if (new Date(Date.parse(`${day}T12:00:00Z`) || 0).toISOString().slice(0, 10) !== day) {
    ctx.addIssue({ code: 'custom', message: 'That day does not exist.' });
  }
});

const dayList = z
  .array(calendarDay)
  .max(1000, 'At most 1000 days.')
  .refine((days) => new Set(days).size === days.length, 'Each day may be listed once.');

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const REGION = /^[A-Z]{2}$/;

export const HOLIDAY_COUNTRIES = ['US', 'CA', ''] as const;

const holidayFields = z.object({
  /** Whose public holidays the shop closes for: '' for none. */
  country: z.enum(HOLIDAY_COUNTRIES, {
    error: "Holidays must be US (United States), CA (Canada) or '' (none).",
  }),
  /** A state or province adding its own public holidays ('WI'); absent: the country's only. */
  region: z.string().regex(REGION, 'A region is a two-letter state or province code, like WI.').optional(),
  /** Closures of the shop's own (inventory, vacation). */
  extraDays: dayList,
  /** Public holidays the shop works anyway. */
  workingDays: dayList,
});

export const holidaySettings = holidayFields.refine(
  // A malformed region has its own message already.
  (h) =>
    h.region === undefined || !REGION.test(h.region) || (h.country !== '' && isRegionOf(h.country, h.region)),
  {
    message: 'The region must be a state or province of the holidays’ country.',
    path: ['region'],
  },
);
export type HolidaySettings = z.infer<typeof holidaySettings>;

let regions: Holidays | undefined;
function isRegionOf(country: string, region: string): boolean {
  regions ??= new Holidays();
  return Object.hasOwn(regions.getStates(country) ?? {}, region);
}

export const productionSettings = z.object({
  /** Printers running at once. */
  printers: z
    .number({ error: 'Printers must be a whole number from 1 to 1000.' })
    .int('Printers must be a whole number from 1 to 1000.')
    .min(1, 'Printers must be a whole number from 1 to 1000.')
    .max(1000, 'Printers must be a whole number from 1 to 1000.'),
  /** Hours each printer prints on a working day. */
  hoursPerDay: z
    .number({ error: 'Hours per day must be a number above 0, up to 24.' })
    .gt(0, 'Hours per day must be a number above 0, up to 24.')
    .max(24, 'Hours per day must be a number above 0, up to 24.'),
  /** The weekdays the shop works: 0 Sunday .. 6 Saturday. */
  workingDays: z
    .array(
      z
        .number({ error: 'A weekday is a number from 0 (Sunday) to 6 (Saturday).' })
        .int('A weekday is a number from 0 (Sunday) to 6 (Saturday).')
        .min(0, 'A weekday is a number from 0 (Sunday) to 6 (Saturday).')
        .max(6, 'A weekday is a number from 0 (Sunday) to 6 (Saturday).'),
    )
    .min(1, 'The shop must work at least one weekday.')
    .max(7)
    .refine((days) => new Set(days).size === days.length, 'Each weekday may be listed once.'),
  /** Orders paid before this shop-local time start production the same working day. */
  cutoff: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'The cut-off is a 24-hour time HH:MM, like 14:00.'),
  /** The shop's IANA time zone: its dates and cut-off are local to it. */
  timeZone: z.string().refine(isTimeZone, 'The time zone must be an IANA name, like America/Chicago.'),
  holidays: holidaySettings,
});
export type ProductionSettings = z.infer<typeof productionSettings>;

export const DEFAULT_PRODUCTION: ProductionSettings = {
  printers: 4,
  hoursPerDay: 20,
  workingDays: [1, 2, 3, 4, 5],
  cutoff: '14:00',
  timeZone: 'America/Chicago',
  holidays: { country: 'US', extraDays: [], workingDays: [] },
};

/** What the settings row may hold: any subset of the keys, the holidays' too. */
export const productionOverrides = productionSettings.extend({ holidays: holidayFields.partial() }).partial();
export type ProductionOverrides = z.infer<typeof productionOverrides>;

/**
 * The defaults with the stored overrides on top. A stored key that is not valid (hand-edited JSON, an
 * older version's name) is ignored on its own, so one bad value never throws away the others; a region
 * that does not belong to the resulting country is dropped.
 */
export function mergeProduction(stored: unknown): ProductionSettings {
  const merged: ProductionSettings = {
    ...DEFAULT_PRODUCTION,
    workingDays: [...DEFAULT_PRODUCTION.workingDays],
    holidays: {
      ...DEFAULT_PRODUCTION.holidays,
      extraDays: [...DEFAULT_PRODUCTION.holidays.extraDays],
      workingDays: [...DEFAULT_PRODUCTION.holidays.workingDays],
    },
  };
  if (!isRecord(stored)) return merged;
  const shape = productionOverrides.shape;
  for (const [key, value] of Object.entries(stored)) {
    if (!Object.hasOwn(shape, key) || key === 'holidays') continue;
    const parsed = shape[key as keyof typeof shape].safeParse(value);
    if (parsed.success && parsed.data !== undefined) (merged as Record<string, unknown>)[key] = parsed.data;
  }
  if (isRecord(stored.holidays)) {
    const holidayShape = holidayFields.shape;
    for (const [key, value] of Object.entries(stored.holidays)) {
      if (!Object.hasOwn(holidayShape, key)) continue;
      const parsed = holidayShape[key as keyof typeof holidayShape].safeParse(value);
      if (parsed.success && parsed.data !== undefined) {
        (merged.holidays as Record<string, unknown>)[key] = parsed.data;
      }
    }
    if (!holidaySettings.safeParse(merged.holidays).success) delete merged.holidays.region;
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
