import { describe, expect, it } from 'vitest';
import { shipByDate, shopDate } from './ship-by.ts';

describe('shipByDate', () => {
  it("counts five working days from the payment's date in Wisconsin", () => {
    // Wednesday 2026-11-25 -> Wednesday 2026-12-02.
    expect(shipByDate(new Date('2026-11-25T15:00:00Z'))).toBe('2026-12-02');
    // Friday -> the Friday after; Saturday and Sunday count from Monday.
    expect(shipByDate(new Date('2026-11-27T15:00:00Z'))).toBe('2026-12-04');
    expect(shipByDate(new Date('2026-11-28T15:00:00Z'))).toBe('2026-12-04');
    expect(shipByDate(new Date('2026-11-29T15:00:00Z'))).toBe('2026-12-04');
  });

  it("uses the shop's date, not UTC: 02:00 UTC on a Saturday is still Friday evening in Madison", () => {
    expect(shopDate(new Date('2026-11-28T02:00:00Z'))).toBe('2026-11-27');
    expect(shipByDate(new Date('2026-11-28T02:00:00Z'))).toBe('2026-12-04');
  });
});
