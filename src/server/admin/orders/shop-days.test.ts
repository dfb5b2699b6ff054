import { describe, expect, it } from 'vitest';
import { shopDayEnd, shopDayStart } from './shop-days.ts';

describe('shop days (America/Chicago)', () => {
  it('start at the shop’s midnight, in standard and in daylight time', () => {
    expect(shopDayStart('2030-01-15').toISOString()).toBe('2030-01-15T06:00:00.000Z');
    expect(shopDayStart('2030-07-15').toISOString()).toBe('2030-07-15T05:00:00.000Z');
  });

  it('end where the next one starts, across the clock changes (a 23- and a 25-hour day)', () => {
    expect(shopDayEnd('2030-03-10').getTime() - shopDayStart('2030-03-10').getTime()).toBe(23 * 3600_000);
    expect(shopDayEnd('2030-11-03').getTime() - shopDayStart('2030-11-03').getTime()).toBe(25 * 3600_000);
    expect(shopDayEnd('2030-12-31').toISOString()).toBe('2031-01-01T06:00:00.000Z');
  });

  it('refuses a day that does not exist', () => {
    expect(() => shopDayStart('2030-02-30')).toThrow('Dates are YYYY-MM-DD.');
    expect(() => shopDayEnd('2030-13-01')).toThrow('Dates are YYYY-MM-DD.');
  });
});
