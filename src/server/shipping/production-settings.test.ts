import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRODUCTION,
  mergeProduction,
  type ProductionSettings,
  productionOverrides,
  productionSettings,
} from './production-settings.ts';

/** The messages of a settings object with `patch` applied (none: valid). */
function messages(patch: Record<string, unknown>): string[] {
  const result = productionSettings.safeParse({ ...DEFAULT_PRODUCTION, ...patch });
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

const holidays = (patch: Record<string, unknown>) => ({
  holidays: { ...DEFAULT_PRODUCTION.holidays, ...patch },
});

describe('productionSettings', () => {
  it('holds the defaults: 4 printers x 20 h, Monday to Friday, 14:00 in Chicago, US holidays', () => {
    expect(productionSettings.parse(DEFAULT_PRODUCTION)).toEqual(DEFAULT_PRODUCTION);
    expect(DEFAULT_PRODUCTION).toEqual({
      printers: 4,
      hoursPerDay: 20,
      workingDays: [1, 2, 3, 4, 5],
      cutoff: '14:00',
      timeZone: 'America/Chicago',
      holidays: { country: 'US', extraDays: [], workingDays: [] },
    });
  });

  it('takes 1 to 1000 whole printers', () => {
    for (const ok of [1, 1000]) expect(messages({ printers: ok })).toEqual([]);
    for (const bad of [0, 1.5, 1001, '4', null]) {
      expect(messages({ printers: bad })).toEqual(['Printers must be a whole number from 1 to 1000.']);
    }
  });

  it('takes more than 0 and up to 24 hours a day', () => {
    for (const ok of [0.5, 24]) expect(messages({ hoursPerDay: ok })).toEqual([]);
    for (const bad of [0, -1, 24.5, 'all']) {
      expect(messages({ hoursPerDay: bad })).toEqual(['Hours per day must be a number above 0, up to 24.']);
    }
  });

  it('takes distinct weekdays from 0 (Sunday) to 6, at least one', () => {
    expect(messages({ workingDays: [0, 6] })).toEqual([]);
    expect(messages({ workingDays: [] })).toEqual(['The shop must work at least one weekday.']);
    expect(messages({ workingDays: [1, 1] })).toEqual(['Each weekday may be listed once.']);
    expect(messages({ workingDays: [7] })).toEqual([
      'A weekday is a number from 0 (Sunday) to 6 (Saturday).',
    ]);
    expect(messages({ workingDays: [1.5] })).toEqual([
      'A weekday is a number from 0 (Sunday) to 6 (Saturday).',
    ]);
  });

  it('takes a 24-hour HH:MM cut-off', () => {
    for (const ok of ['00:00', '09:30', '23:59']) expect(messages({ cutoff: ok })).toEqual([]);
    for (const bad of ['2pm', '9:00', '24:00', '14:60', '14:00:00', '']) {
      expect(messages({ cutoff: bad })).toEqual(['The cut-off is a 24-hour time HH:MM, like 14:00.']);
    }
  });

  it('takes an IANA time zone Intl knows', () => {
    for (const ok of ['America/Toronto', 'UTC', 'Europe/Berlin'])
      expect(messages({ timeZone: ok })).toEqual([]);
    for (const bad of ['Mars/Olympus_Mons', 'Central', '']) {
      expect(messages({ timeZone: bad })).toEqual([
        'The time zone must be an IANA name, like America/Chicago.',
      ]);
    }
  });

  it('takes US, CA or no holidays, and a region of that country', () => {
    expect(messages(holidays({ country: '' }))).toEqual([]);
    expect(messages(holidays({ country: 'CA', region: 'ON' }))).toEqual([]);
    expect(messages(holidays({ region: 'WI' }))).toEqual([]);
    expect(messages(holidays({ country: 'MX' }))).toEqual([
      "Holidays must be US (United States), CA (Canada) or '' (none).",
    ]);
    expect(messages(holidays({ region: 'Wisconsin' }))).toEqual([
      'A region is a two-letter state or province code, like WI.',
    ]);
    for (const bad of [{ region: 'ON' }, { country: 'CA', region: 'WI' }, { country: '', region: 'WI' }]) {
      expect(messages(holidays(bad))).toEqual([
        'The region must be a state or province of the holidays’ country.',
      ]);
    }
  });

  it('takes real, distinct YYYY-MM-DD days as closures and worked holidays', () => {
    expect(
      messages(holidays({ extraDays: ['2026-12-24', '2026-12-31'], workingDays: ['2026-10-12'] })),
    ).toEqual([]);
    expect(messages(holidays({ extraDays: ['2026-02-30'] }))).toEqual(['That day does not exist.']);
    expect(messages(holidays({ workingDays: ['12/24/2026'] }))).toEqual(['A day is written YYYY-MM-DD.']);
    expect(messages(holidays({ extraDays: ['2026-12-24', '2026-12-24'] }))).toEqual([
      'Each day may be listed once.',
    ]);
  });
});

describe('productionOverrides', () => {
  it('takes any subset of the keys, the holidays’ too', () => {
    expect(productionOverrides.parse({})).toEqual({});
    expect(productionOverrides.parse({ printers: 6, holidays: { region: 'WI' } })).toEqual({
      printers: 6,
      holidays: { region: 'WI' },
    });
    expect(productionOverrides.safeParse({ printers: 0 }).success).toBe(false);
    expect(productionOverrides.strict().safeParse({ madeUp: 1 }).success).toBe(false);
  });
});

describe('mergeProduction', () => {
  it('answers the defaults for nothing stored', () => {
    for (const stored of [undefined, null, {}, 'nonsense', [], 42]) {
      expect(mergeProduction(stored)).toEqual(DEFAULT_PRODUCTION);
    }
  });

  it('lays partial overrides over the defaults, holidays key by key', () => {
    const merged = mergeProduction({ printers: 8, cutoff: '12:30', holidays: { extraDays: ['2026-12-24'] } });
    expect(merged).toEqual({
      ...DEFAULT_PRODUCTION,
      printers: 8,
      cutoff: '12:30',
      holidays: { country: 'US', extraDays: ['2026-12-24'], workingDays: [] },
    });
  });

  it('ignores invalid or unknown keys one by one, keeping the valid ones', () => {
    const merged = mergeProduction({
      printers: 0,
      hoursPerDay: 30,
      workingDays: [],
      cutoff: '2pm',
      timeZone: 'Nowhere/Special',
      holidays: { country: 'MX', region: 'WI', extraDays: ['2026-02-30'], workingDays: ['2026-10-12'] },
      somethingElse: 1,
    });
    expect(merged).toEqual({
      ...DEFAULT_PRODUCTION,
      holidays: { country: 'US', region: 'WI', extraDays: [], workingDays: ['2026-10-12'] },
    });
    expect(mergeProduction({ hoursPerDay: 16, holidays: 'none' })).toEqual({
      ...DEFAULT_PRODUCTION,
      hoursPerDay: 16,
    });
  });

  it('drops a region that is not of the resulting country', () => {
    expect(mergeProduction({ holidays: { country: 'CA', region: 'WI' } }).holidays).toEqual({
      country: 'CA',
      extraDays: [],
      workingDays: [],
    });
    expect(mergeProduction({ holidays: { country: 'CA', region: 'ON' } }).holidays.region).toBe('ON');
    expect(mergeProduction({ holidays: { country: '', region: 'WI' } }).holidays).toEqual({
      country: '',
      extraDays: [],
      workingDays: [],
    });
  });

  it('always answers valid settings and never changes the defaults', () => {
    const merged: ProductionSettings = mergeProduction({ workingDays: [1, 2, 3, 4, 5, 6] });
    merged.workingDays.push(0);
    merged.holidays.extraDays.push('2026-12-24');
    expect(DEFAULT_PRODUCTION.workingDays).toEqual([1, 2, 3, 4, 5]);
    expect(DEFAULT_PRODUCTION.holidays.extraDays).toEqual([]);
    expect(mergeProduction({}).workingDays).not.toBe(DEFAULT_PRODUCTION.workingDays);
    expect(productionSettings.safeParse(mergeProduction({ holidays: { region: 'WI' } })).success).toBe(true);
  });
});
