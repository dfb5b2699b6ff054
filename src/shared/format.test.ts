import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatCount,
  formatDimension,
  formatDimensions,
  formatMoney,
  formatNumber,
  formatVolume,
} from './format.ts';

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

  it('groups the thousands of sizes and volumes as prices are (issue #26)', () => {
    expect(formatVolume(158792.784)).toBe('158,792.78 cm³');
    expect(formatVolume(15625)).toBe('15,625.00 cm³');
    expect(formatVolume(1_234_567.891)).toBe('1,234,567.89 cm³');
    expect(formatDimension(1200)).toBe('1,200.0');
    expect(formatDimensions({ x: 1200, y: 600.04, z: 25.4 })).toBe('1,200.0 x 600.0 x 25.4 mm');
  });

  it('shows a volume under 0.01 cm³ in mm³ with up to 3 significant digits, never as 0.00 cm³', () => {
    expect(formatVolume(0)).toBe('0.00 cm³');
    expect(formatVolume(0.001)).toBe('1 mm³');
    expect(formatVolume(0.000001)).toBe('0.001 mm³');
    expect(formatVolume(0.0071)).toBe('7.1 mm³');
    expect(formatVolume(0.00012345)).toBe('0.123 mm³');
    expect(formatVolume(0.009994)).toBe('9.99 mm³');
    // The boundary: from 0.01 cm³ on, cm³ with 2 decimals.
    expect(formatVolume(0.01)).toBe('0.01 cm³');
    expect(formatVolume(0.0149)).toBe('0.01 cm³');
  });

  it('shows a size under 0.1 mm with up to 3 significant digits, never as 0.0', () => {
    expect(formatDimension(0)).toBe('0.0');
    expect(formatDimension(0.05)).toBe('0.05');
    expect(formatDimension(0.01234)).toBe('0.0123');
    expect(formatDimension(0.1)).toBe('0.1');
    expect(formatDimensions({ x: 0.04, y: 0.1, z: 2 })).toBe('0.04 x 0.1 x 2.0 mm');
  });

  it('reads a size or volume that is not a number of 0 or more as 0', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -5, -0.001]) {
      expect(formatVolume(bad)).toBe('0.00 cm³');
      expect(formatDimension(bad)).toBe('0.0');
    }
    expect(formatNumber(Number.NaN, 2)).toBe('0.00');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
    expect(formatNumber(-1234.5, 1)).toBe('-1,234.5');
  });

  it('counts with the right plural (issue #26: "1 items in cart")', () => {
    expect(formatCount(0, 'item')).toBe('0 items');
    expect(formatCount(1, 'item')).toBe('1 item');
    expect(formatCount(2, 'item')).toBe('2 items');
    expect(formatCount(1, 'batch', 'batches')).toBe('1 batch');
    expect(formatCount(3, 'batch', 'batches')).toBe('3 batches');
    expect(formatCount(250000, 'triangle')).toBe('250,000 triangles');
  });
});
