import { describe, expect, it } from 'vitest';
import { mondayOf, weekStarts } from './weeks.ts';

describe('shop weeks', () => {
  it('start on Monday', () => {
    expect(mondayOf('2026-03-09')).toBe('2026-03-09'); // a Monday
    expect(mondayOf('2026-03-15')).toBe('2026-03-09'); // its Sunday
    expect(mondayOf('2026-03-16')).toBe('2026-03-16');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29'); // across a year
    expect(mondayOf('2024-03-03')).toBe('2024-02-26'); // across a leap day
  });

  it('list the last n weeks oldest first, this week last, across a daylight-saving change', () => {
    expect(weekStarts('2026-03-11', 3)).toEqual(['2026-02-23', '2026-03-02', '2026-03-09']);
    expect(weekStarts('2026-11-02', 2)).toEqual(['2026-10-26', '2026-11-02']);
    expect(weekStarts('2026-03-11', 1)).toEqual(['2026-03-09']);
    expect(weekStarts('2026-03-11', 52)).toHaveLength(52);
    expect(weekStarts('2026-03-11', 52)[0]).toBe('2025-03-17');
  });

  it('refuse a day that does not exist', () => {
    expect(() => mondayOf('2026-02-30')).toThrow(RangeError);
  });
});
