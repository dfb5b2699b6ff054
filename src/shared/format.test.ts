import { describe, expect, it } from 'vitest';
import { formatCents, formatDimension, formatDimensions, formatMoney, formatVolume } from './format.ts';

describe('formats of docs/domain.md', () => {
  it('shows money with 2 decimals', () => {
    expect(formatMoney(12)).toBe('$12.00');
    expect(formatMoney(12.345)).toBe('$12.35');
    expect(formatMoney(3.5, 'usd')).toBe('$3.50 USD');
    expect(formatCents(1999)).toBe('$19.99');
    expect(formatMoney(Number.NaN)).toBe('$0.00');
    expect(formatMoney(-0.001)).toBe('$0.00');
  });

  it('groups thousands (issue: money reads like money)', () => {
    expect(formatMoney(42929.98)).toBe('$42,929.98');
    expect(formatMoney(1000)).toBe('$1,000.00');
    expect(formatMoney(999.999)).toBe('$1,000.00');
    expect(formatCents(123456789, 'usd')).toBe('$1,234,567.89 USD');
  });

  it('shows dimensions with 1 decimal', () => {
    expect(formatDimension(20)).toBe('20.0');
    expect(formatDimension(10.26)).toBe('10.3');
    expect(formatDimensions({ x: 20, y: 10.55, z: 3 })).toBe('20.0 x 10.6 x 3.0 mm');
  });

  it('shows volume with 2 decimals', () => {
    expect(formatVolume(8)).toBe('8.00 cm³');
    expect(formatVolume(0.125)).toBe('0.13 cm³');
  });
});
