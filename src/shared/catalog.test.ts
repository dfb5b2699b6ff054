import { describe, expect, it } from 'vitest';
import {
  COLORS,
  colorName,
  colorSwatch,
  isStrength,
  STRENGTHS,
  statusLabel,
  strengthLabel,
} from './catalog.ts';

describe('colors', () => {
  it('has the seven standard colors of docs/domain.md', () => {
    expect(COLORS.map((c) => `${c.hex} ${c.name}`)).toEqual([
      '#007bff Blue',
      '#dc3545 Red',
      '#28a745 Green',
      '#ffc107 Yellow',
      '#343a40 Black',
      '#f8f9fa White',
      '#6c757d Gray',
    ]);
  });

  it('names a color from its hex code or its plain name, in any case', () => {
    expect(colorName('#dc3545')).toBe('Red');
    expect(colorName('#DC3545')).toBe('Red');
    for (const plain of ['blue', 'red', 'green', 'yellow', 'black', 'white', 'gray']) {
      expect(colorName(plain).toLowerCase()).toBe(plain);
    }
    expect(colorName('#123456')).toBe('#123456');
    expect(colorName('')).toBe('');
  });

  it('gives the default swatch #cccccc for an unknown color', () => {
    expect(colorSwatch('green')).toBe('#28a745');
    expect(colorSwatch('#007bff')).toBe('#007bff');
    expect(colorSwatch('purple')).toBe('#cccccc');
    expect(colorSwatch(undefined)).toBe('#cccccc');
  });
});

describe('strengths', () => {
  it('labels 1-5 as docs/domain.md says', () => {
    expect(STRENGTHS.map((s) => strengthLabel(s.level))).toEqual([
      'Hollow',
      'Light',
      'Standard',
      'Heavy',
      'Solid',
    ]);
    expect(strengthLabel(9)).toBe('9');
  });

  it('accepts only the integers 1-5', () => {
    expect([1, 2, 3, 4, 5].every(isStrength)).toBe(true);
    expect([0, 6, 2.5, Number.NaN, '3', null].some(isStrength)).toBe(false);
  });
});

describe('order status labels', () => {
  it('labels every status of docs/domain.md', () => {
    expect(statusLabel('pending')).toBe('Pending Payment');
    expect(statusLabel('paid')).toBe('Paid / Processing');
    expect(statusLabel('queued')).toBe('Queued for Print');
    expect(statusLabel('printing')).toBe('Printing');
    expect(statusLabel('shipped')).toBe('Shipped');
    expect(statusLabel('failed')).toBe('Payment Failed');
    expect(statusLabel('cancelled')).toBe('Cancelled');
  });

  it("shows another value as is and an empty one as 'Unknown'", () => {
    expect(statusLabel('refunded')).toBe('refunded');
    expect(statusLabel('')).toBe('Unknown');
    expect(statusLabel(null)).toBe('Unknown');
  });
});
