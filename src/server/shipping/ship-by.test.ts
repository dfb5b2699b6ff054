import Holidays from 'date-holidays';
import { describe, expect, it, vi } from 'vitest';
import { createCalendar } from './calendar.ts';
import { DEFAULT_PRODUCTION, type ProductionSettings } from './production-settings.ts';
import {
  arrivalWindow,
  businessDaysUntil,
  MAX_LEAD_WORKING_DAYS,
  productionStart,
  SHOP_TIME_ZONE,
  shipByFor,
  shopDate,
  weekdaysUntil,
} from './ship-by.ts';

// Instants are written with Chicago's offset of the day: -06:00 in standard time (CST), -05:00 in
// daylight-saving time (CDT, from 2026-03-08 to 2026-11-01). 2026-03-09 is a Monday.

const cal = createCalendar(DEFAULT_PRODUCTION);
const start = (iso: string) => productionStart(new Date(iso), cal);
const shipBy = (iso: string, queueHours = 0, ownHours = 0, production = DEFAULT_PRODUCTION) =>
  shipByFor({ now: new Date(iso), queueHours, ownHours, production, calendar: createCalendar(production) });

function settings(overrides: Partial<ProductionSettings>): ProductionSettings {
  return { ...DEFAULT_PRODUCTION, ...overrides };
}

describe('the working-day calendar (US federal holidays, Monday to Friday)', () => {
  it('closes on weekends and public holidays, substitute days included', () => {
    expect(cal.isWorkingDay('2026-03-09')).toBe(true); // Monday
    expect(cal.isWorkingDay('2026-03-14')).toBe(false); // Saturday
    expect(cal.isWorkingDay('2026-03-15')).toBe(false); // Sunday
    expect(cal.isWorkingDay('2026-11-26')).toBe(false); // Thanksgiving
    expect(cal.isWorkingDay('2026-11-27')).toBe(true); // the day after: not a federal holiday
    expect(cal.isWorkingDay('2026-12-24')).toBe(true); // Christmas Eve: optional, not public
    expect(cal.isWorkingDay('2026-12-25')).toBe(false); // Christmas
    expect(cal.isWorkingDay('2026-07-03')).toBe(false); // Independence Day (substitute day)
    expect(cal.isWorkingDay('2026-01-19')).toBe(false); // Martin Luther King Jr. Day
  });

  it('knows a substitute day the year before its holiday (New Year 2028 is a Saturday)', () => {
    const fresh = createCalendar(DEFAULT_PRODUCTION);
    expect(fresh.isWorkingDay('2027-12-31')).toBe(false);
    expect(fresh.isWorkingDay('2027-12-30')).toBe(true);
  });

  it('adds and finds working days, 0 days being the day itself', () => {
    expect(cal.nextWorkingDay('2026-11-25')).toBe('2026-11-27');
    expect(cal.nextWorkingDay('2026-03-13')).toBe('2026-03-16');
    expect(cal.addWorkingDays('2026-03-13', 0)).toBe('2026-03-13');
    expect(cal.addWorkingDays('2026-03-14', 0)).toBe('2026-03-14');
    expect(cal.addWorkingDays('2026-03-13', 5)).toBe('2026-03-20');
    expect(cal.addWorkingDays('2026-12-30', 2)).toBe('2027-01-04'); // over New Year's Day
  });

  it('refuses malformed days and day counts', () => {
    for (const bad of ['2026-02-30', '2026-3-9', 'tomorrow', '']) {
      expect(() => cal.isWorkingDay(bad)).toThrow(RangeError);
      expect(() => cal.addWorkingDays(bad, 1)).toThrow(RangeError);
    }
    expect(() => cal.addWorkingDays('2026-03-09', -1)).toThrow(RangeError);
    expect(() => cal.addWorkingDays('2026-03-09', 1.5)).toThrow(RangeError);
  });

  it('reads dates and times in the shop’s zone, across both daylight-saving changes', () => {
    expect(SHOP_TIME_ZONE).toBe('America/Chicago');
    // 03:00 UTC on Saturday is still Friday evening in Chicago.
    expect(cal.shopDate(new Date('2026-03-14T03:00:00Z'))).toBe('2026-03-13');
    expect(cal.shopTime(new Date('2026-03-14T03:00:00Z'))).toBe(22 * 60);
    expect(cal.shopTime(new Date('2026-03-08T07:59:00Z'))).toBe(1 * 60 + 59); // 01:59 CST
    expect(cal.shopTime(new Date('2026-03-08T08:00:00Z'))).toBe(3 * 60); // 03:00 CDT
    expect(cal.shopTime(new Date('2026-11-01T06:30:00Z'))).toBe(1 * 60 + 30); // 01:30 CDT
    expect(cal.shopTime(new Date('2026-11-01T07:30:00Z'))).toBe(1 * 60 + 30); // 01:30 CST
    expect(cal.shopTime(new Date('2026-03-09T05:00:00Z'))).toBe(0); // midnight CDT
  });

  it('builds each year of a country’s holidays once, for every calendar', () => {
    const spy = vi.spyOn(Holidays.prototype, 'getHolidays');
    try {
      const first = createCalendar(DEFAULT_PRODUCTION);
      for (let d = 1; d <= 28; d++) first.isWorkingDay(`2040-02-${String(d).padStart(2, '0')}`);
      expect(spy.mock.calls.map(([year]) => year)).toEqual([2039, 2040, 2041]); // substitutes cross New Year
      first.addWorkingDays('2040-01-02', 200);
      createCalendar(DEFAULT_PRODUCTION).addWorkingDays('2040-01-02', 200);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('productionStart', () => {
  it('starts today before the 2 pm cut-off, the next working day from it on', () => {
    expect(start('2026-03-10T09:00:00-05:00')).toBe('2026-03-10');
    expect(start('2026-03-10T13:59:59-05:00')).toBe('2026-03-10');
    expect(start('2026-03-10T14:00:00-05:00')).toBe('2026-03-11'); // exactly at the cut-off
    expect(start('2026-03-10T16:30:00-05:00')).toBe('2026-03-11');
    expect(start('2026-03-10T00:00:00-05:00')).toBe('2026-03-10');
    expect(start('2026-03-10T23:59:00-05:00')).toBe('2026-03-11');
  });

  it('starts on Monday for a weekend or Friday-afternoon order', () => {
    expect(start('2026-03-13T15:00:00-05:00')).toBe('2026-03-16'); // Friday after the cut-off
    expect(start('2026-03-14T09:00:00-05:00')).toBe('2026-03-16'); // Saturday morning
    expect(start('2026-03-15T13:00:00-05:00')).toBe('2026-03-16'); // Sunday before the cut-off
  });

  it('skips Thanksgiving but works the day after', () => {
    expect(start('2026-11-25T15:00:00-06:00')).toBe('2026-11-27'); // Wednesday after the cut-off
    expect(start('2026-11-26T09:00:00-06:00')).toBe('2026-11-27'); // Thanksgiving morning
    expect(start('2026-11-27T09:00:00-06:00')).toBe('2026-11-27');
  });

  it('skips Christmas and the July 3 2026 substitute day', () => {
    expect(start('2026-12-24T15:00:00-06:00')).toBe('2026-12-28');
    expect(start('2026-12-25T09:00:00-06:00')).toBe('2026-12-28');
    expect(start('2026-07-03T09:00:00-05:00')).toBe('2026-07-06');
    expect(start('2026-07-02T15:00:00-05:00')).toBe('2026-07-06');
  });

  it('reads the cut-off in the shop’s zone, not in UTC', () => {
    // 18:30 UTC is 13:30 in Chicago: before the cut-off, though past 14:00 in UTC.
    expect(start('2026-03-10T18:30:00Z')).toBe('2026-03-10');
    // Monday 22:00 in Chicago, already Tuesday 03:00 in UTC: Monday is past its cut-off.
    expect(start('2026-03-10T03:00:00Z')).toBe('2026-03-10');
    // With a late cut-off the shop's date decides: Friday 22:00 Chicago, Saturday in UTC.
    const late = createCalendar(settings({ cutoff: '23:00' }));
    expect(productionStart(new Date('2026-03-14T03:00:00Z'), late)).toBe('2026-03-13');
    // Another shop's zone: 13:30 UTC is 14:30 in Berlin (CET), past the cut-off there.
    const berlin = createCalendar(settings({ timeZone: 'Europe/Berlin' }));
    expect(productionStart(new Date('2026-03-10T13:30:00Z'), berlin)).toBe('2026-03-11');
    expect(productionStart(new Date('2026-03-10T12:59:00Z'), berlin)).toBe('2026-03-10');
  });

  it('keeps the cut-off at 14:00 local on both sides of the spring change (2026-03-08)', () => {
    expect(start('2026-03-06T13:59:00-06:00')).toBe('2026-03-06'); // Friday, CST: 19:59 UTC
    expect(start('2026-03-06T14:00:00-06:00')).toBe('2026-03-09'); // 20:00 UTC
    expect(start('2026-03-09T13:59:00-05:00')).toBe('2026-03-09'); // Monday, CDT: 18:59 UTC
    expect(start('2026-03-09T14:00:00-05:00')).toBe('2026-03-10'); // 19:00 UTC
    expect(start('2026-03-09T19:30:00Z')).toBe('2026-03-10'); // 14:30 CDT, though 13:30 in CST
  });

  it('keeps the cut-off at 14:00 local on both sides of the autumn change (2026-11-01)', () => {
    expect(start('2026-10-30T13:59:00-05:00')).toBe('2026-10-30'); // Friday, CDT: 18:59 UTC
    expect(start('2026-10-30T14:00:00-05:00')).toBe('2026-11-02'); // 19:00 UTC
    expect(start('2026-11-02T13:59:00-06:00')).toBe('2026-11-02'); // Monday, CST: 19:59 UTC
    expect(start('2026-11-02T14:00:00-06:00')).toBe('2026-11-03'); // 20:00 UTC
    expect(start('2026-11-02T19:30:00Z')).toBe('2026-11-02'); // 13:30 CST, though 14:30 in CDT
  });
});

describe('shipByFor', () => {
  it('ships at least one working day after production starts, even with nothing queued', () => {
    expect(shipBy('2026-03-09T10:00:00-05:00')).toBe('2026-03-10');
    expect(shipBy('2026-03-13T15:00:00-05:00')).toBe('2026-03-17'); // Friday after the cut-off
    expect(shipBy('2026-11-25T10:00:00-06:00')).toBe('2026-11-27'); // over Thanksgiving
    expect(shipBy('2026-12-24T10:00:00-06:00')).toBe('2026-12-28'); // over Christmas
    expect(shipBy('2026-07-02T10:00:00-05:00')).toBe('2026-07-06'); // over July 3 and the weekend
  });

  it('adds a working day for each day of printing the queue and the order take', () => {
    // 4 printers x 20 h = 80 printer hours a day.
    const monday = '2026-03-09T10:00:00-05:00';
    expect(shipBy(monday, 0, 80)).toBe('2026-03-10');
    expect(shipBy(monday, 40, 40)).toBe('2026-03-10');
    expect(shipBy(monday, 80, 0.5)).toBe('2026-03-11');
    expect(shipBy(monday, 160, 0)).toBe('2026-03-11');
    expect(shipBy(monday, 400, 0)).toBe('2026-03-16'); // 5 days
    expect(shipBy(monday, 0.1 + 0.2, 79.7)).toBe('2026-03-10'); // no rounding tips it over
  });

  it('takes 50 working days for a 4,000-hour queue on 4 printers x 20 h, skipping holidays', () => {
    // From Monday 2026-01-05: 50 working days, less Martin Luther King Jr. Day and Washington's Birthday.
    const now = '2026-01-05T10:00:00-06:00';
    expect(shipBy(now, 4000, 0)).toBe('2026-03-18');
    expect(shipBy(now, 3990, 10)).toBe('2026-03-18');
    expect(businessDaysUntil(new Date(now), '2026-03-18', cal)).toBe(50);
  });

  it('follows the printers and hours per day', () => {
    const small = settings({ printers: 1, hoursPerDay: 8 });
    expect(shipBy('2026-03-09T10:00:00-05:00', 12, 8, small)).toBe('2026-03-12'); // 20 h: 3 days
  });

  it('treats NaN and negative hours as none, and caps the lead time', () => {
    const monday = '2026-03-09T10:00:00-05:00';
    expect(shipBy(monday, Number.NaN, Number.NaN)).toBe('2026-03-10');
    expect(shipBy(monday, -500, 80)).toBe('2026-03-10');
    const capped = cal.addWorkingDays('2026-03-09', MAX_LEAD_WORKING_DAYS);
    expect(shipBy(monday, 1e12, 0)).toBe(capped);
    expect(shipBy(monday, Number.POSITIVE_INFINITY, 0)).toBe(capped);
  });

  it('builds the calendar from the settings when none is given', () => {
    const now = new Date('2026-11-25T10:00:00-06:00');
    const input = { now, queueHours: 100, ownHours: 3, production: DEFAULT_PRODUCTION };
    expect(shipByFor(input)).toBe(shipByFor({ ...input, calendar: cal }));
  });
});

describe('arrivalWindow', () => {
  it('adds the transit days as working days, 0 being the ship-by day', () => {
    expect(arrivalWindow('2026-03-13', { min: 1, max: 2 }, cal)).toEqual({
      from: '2026-03-16',
      to: '2026-03-17',
    });
    expect(arrivalWindow('2026-03-10', { min: 0, max: 0 }, cal)).toEqual({
      from: '2026-03-10',
      to: '2026-03-10',
    });
    expect(arrivalWindow('2026-03-10', { min: 0, max: 3 }, cal)).toEqual({
      from: '2026-03-10',
      to: '2026-03-13',
    });
  });

  it('skips weekends and holidays', () => {
    expect(arrivalWindow('2026-11-20', { min: 3, max: 5 }, cal)).toEqual({
      from: '2026-11-25',
      to: '2026-11-30',
    });
    expect(arrivalWindow('2026-12-23', { min: 1, max: 2 }, cal)).toEqual({
      from: '2026-12-24',
      to: '2026-12-28',
    });
    expect(arrivalWindow('2026-12-30', { min: 1, max: 3 }, cal)).toEqual({
      from: '2026-12-31',
      to: '2027-01-05',
    });
    expect(arrivalWindow('2026-07-02', { min: 1, max: 1 }, cal)).toEqual({
      from: '2026-07-06',
      to: '2026-07-06',
    });
  });
});

describe('a custom calendar', () => {
  const custom = settings({
    workingDays: [1, 2, 3, 4, 5, 6],
    holidays: { country: '', extraDays: ['2026-11-27'], workingDays: [] },
  });
  const c = createCalendar(custom);

  it('works Saturdays and holidays, and closes on its own closures', () => {
    expect(c.isWorkingDay('2026-11-26')).toBe(true); // Thanksgiving: no holidays
    expect(c.isWorkingDay('2026-11-27')).toBe(false); // closed
    expect(c.isWorkingDay('2026-11-28')).toBe(true); // Saturday
    expect(c.isWorkingDay('2026-11-29')).toBe(false); // Sunday
    expect(c.isWorkingDay('2026-12-25')).toBe(true);
  });

  it('dates orders and arrivals by it', () => {
    expect(productionStart(new Date('2026-11-26T10:00:00-06:00'), c)).toBe('2026-11-26');
    expect(shipBy('2026-11-26T10:00:00-06:00', 0, 1, custom)).toBe('2026-11-28');
    expect(productionStart(new Date('2026-11-28T10:00:00-06:00'), c)).toBe('2026-11-28');
    expect(productionStart(new Date('2026-11-29T10:00:00-06:00'), c)).toBe('2026-11-30');
    expect(arrivalWindow('2026-11-28', { min: 1, max: 2 }, c)).toEqual({
      from: '2026-11-30',
      to: '2026-12-01',
    });
  });

  it('works a holiday listed as a working day, and adds a region’s or Canada’s holidays', () => {
    expect(cal.isWorkingDay('2026-10-12')).toBe(false); // Columbus Day
    const worked = createCalendar(
      settings({ holidays: { country: 'US', extraDays: [], workingDays: ['2026-10-12'] } }),
    );
    expect(worked.isWorkingDay('2026-10-12')).toBe(true);
    expect(worked.isWorkingDay('2026-11-26')).toBe(false);

    expect(cal.isWorkingDay('2026-11-03')).toBe(true);
    const wisconsin = createCalendar(
      settings({ holidays: { country: 'US', region: 'WI', extraDays: [], workingDays: [] } }),
    );
    expect(wisconsin.isWorkingDay('2026-11-03')).toBe(false); // Election Day in Wisconsin
    expect(wisconsin.isWorkingDay('2026-11-26')).toBe(false);

    const canada = createCalendar(settings({ holidays: { country: 'CA', extraDays: [], workingDays: [] } }));
    expect(canada.isWorkingDay('2026-07-01')).toBe(false); // Canada Day
    expect(canada.isWorkingDay('2026-04-03')).toBe(false); // Good Friday
    expect(canada.isWorkingDay('2026-07-03')).toBe(true);
    expect(canada.isWorkingDay('2026-11-26')).toBe(true);
  });
});

describe('businessDaysUntil', () => {
  const at = (iso: string) => new Date(iso);

  it('counts working days after today up to the day', () => {
    expect(businessDaysUntil(at('2026-03-09T10:00:00-05:00'), '2026-03-13', cal)).toBe(4);
    expect(businessDaysUntil(at('2026-03-09T10:00:00-05:00'), '2026-03-16', cal)).toBe(5);
    expect(businessDaysUntil(at('2026-03-13T18:00:00-05:00'), '2026-03-17', cal)).toBe(2);
    expect(businessDaysUntil(at('2026-03-14T10:00:00-05:00'), '2026-03-16', cal)).toBe(1);
    expect(businessDaysUntil(at('2026-03-14T10:00:00-05:00'), '2026-03-15', cal)).toBe(0);
  });

  it('answers 0 for today or a past day', () => {
    expect(businessDaysUntil(at('2026-03-09T10:00:00-05:00'), '2026-03-09', cal)).toBe(0);
    expect(businessDaysUntil(at('2026-03-09T10:00:00-05:00'), '2026-03-02', cal)).toBe(0);
  });

  it('skips holidays and counts from the shop’s date', () => {
    expect(businessDaysUntil(at('2026-11-25T10:00:00-06:00'), '2026-11-30', cal)).toBe(2);
    expect(businessDaysUntil(at('2026-12-23T10:00:00-06:00'), '2027-01-04', cal)).toBe(6);
    // Monday 22:00 in Chicago is Tuesday in UTC: Tuesday and Wednesday are still ahead.
    expect(businessDaysUntil(at('2026-03-10T03:00:00Z'), '2026-03-11', cal)).toBe(2);
  });

  it('matches the lead time of an order paid before the cut-off', () => {
    const now = at('2026-11-23T10:00:00-06:00');
    const day = shipByFor({ now, queueHours: 500, ownHours: 2, production: DEFAULT_PRODUCTION });
    expect(businessDaysUntil(now, day, cal)).toBe(Math.ceil(502 / 80));
  });

  it('refuses a malformed day', () => {
    expect(() => businessDaysUntil(at('2026-03-09T10:00:00Z'), 'soon', cal)).toThrow(RangeError);
  });
});

describe('shopDate', () => {
  it("uses the shop's date, not UTC: 02:00 UTC on a Saturday is still Friday evening in Madison", () => {
    expect(shopDate(new Date('2026-11-28T02:00:00Z'))).toBe('2026-11-27');
    expect(shopDate(new Date('2026-11-28T06:00:00Z'))).toBe('2026-11-28');
  });
});

describe('weekdaysUntil', () => {
  it("counts Monday to Friday as Stripe's business days do, holidays included", () => {
    const cal = createCalendar(DEFAULT_PRODUCTION);
    // Wednesday 2026-11-25 (noon in Chicago) to Tuesday 2026-12-01: Thu (Thanksgiving), Fri, Mon, Tue.
    const wednesday = new Date('2026-11-25T18:00:00Z');
    expect(weekdaysUntil(wednesday, '2026-12-01', cal)).toBe(4);
    expect(businessDaysUntil(wednesday, '2026-12-01', cal)).toBe(3);
    expect(weekdaysUntil(wednesday, '2026-11-25', cal)).toBe(0);
  });
});
