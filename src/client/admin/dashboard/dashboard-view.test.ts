import { describe, expect, it } from 'vitest';
import type { AdminDashboard } from '../../../shared/admin-dashboard.ts';
import {
  colorRows,
  compactDollars,
  cutoffText,
  headline,
  queueText,
  readWeeks,
  strengthRows,
  testOrdersNote,
  weekLabel,
  weekRows,
} from './dashboard-view.ts';

const figures = (patch: Partial<AdminDashboard> = {}): AdminDashboard => ({
  timeZone: 'America/Chicago',
  today: '2026-03-11',
  weeks: [
    { start: '2026-03-02', revenueCents: 2000, orders: 1 },
    { start: '2026-03-09', revenueCents: 123456, orders: 4 },
  ],
  totals: { revenueCents: 125456, orders: 5, averageOrderCents: 25091 },
  byStatus: [],
  queueHours: 9.5,
  late: { count: 0, cutoff: '14:00', orders: [] },
  colors: [{ color: '#28a745', pieces: 4 }],
  strengths: [{ strength: 3, pieces: 2 }],
  testOrders: { included: false, inWeeks: 0 },
  ...patch,
});

describe('the dashboard view', () => {
  it('reads the weeks from the URL, 1-52, else 12', () => {
    expect(readWeeks(new URLSearchParams(''))).toBe(12);
    expect(readWeeks(new URLSearchParams('weeks=4'))).toBe(4);
    expect(readWeeks(new URLSearchParams('weeks=52'))).toBe(52);
    for (const bad of ['0', '53', '1.5', 'abc', ''])
      expect(readWeeks(new URLSearchParams(`weeks=${bad}`)), bad).toBe(12);
  });

  it('names weeks by their Monday, whatever the browser time zone', () => {
    expect(weekLabel('2026-03-09')).toBe('Mar 9');
    expect(weekLabel('2025-12-29')).toBe('Dec 29');
  });

  it('turns the weeks into chart rows in dollars with their text, and picks this week and the last', () => {
    expect(weekRows(figures())[1]).toEqual({
      start: '2026-03-09',
      label: 'Mar 9',
      revenue: 1234.56,
      revenueText: '$1,234.56',
      orders: 4,
    });
    expect(headline(figures())).toEqual({
      thisWeek: { start: '2026-03-09', revenueCents: 123456, orders: 4 },
      lastWeek: { start: '2026-03-02', revenueCents: 2000, orders: 1 },
    });
    expect(
      headline(figures({ weeks: [{ start: '2026-03-09', revenueCents: 0, orders: 0 }] })).lastWeek,
    ).toBeNull();
  });

  it('names colors and strengths', () => {
    expect(colorRows(figures())).toEqual([{ name: 'Green', swatch: '#28a745', pieces: 4 }]);
    expect(strengthRows(figures())).toEqual([{ label: 'Standard (3/5)', pieces: 2 }]);
  });

  it('says what happened to test orders', () => {
    expect(testOrdersNote(figures())).toBeNull();
    expect(testOrdersNote(figures({ testOrders: { included: false, inWeeks: 2 } }))).toBe(
      '2 test orders (paid through the simulator: no money was taken) are left out of these figures.',
    );
    expect(testOrdersNote(figures({ testOrders: { included: true, inWeeks: 1 } }))).toBe(
      'The shop has no real paid order yet, so its test order is counted (paid through the simulator: no money was taken).',
    );
  });

  it('writes hours, cut-offs and axis amounts briefly', () => {
    expect(queueText(9.5)).toBe('9.5 h');
    expect(queueText(0)).toBe('0 h');
    expect(queueText(123.4)).toBe('123 h');
    expect(cutoffText('14:00')).toBe('2 pm');
    expect(cutoffText('09:30')).toBe('9:30 am');
    expect(cutoffText('00:00')).toBe('12 am');
    expect(compactDollars(1234)).toBe('$1.2K');
    expect(compactDollars(300)).toBe('$300');
  });
});
