import { describe, expect, it } from 'vitest';
import {
  fromShown,
  settingLabel,
  settingsIssueMessage,
  tierOrderProblem,
  toShown,
} from './admin-settings.ts';

describe('the settings words', () => {
  it('label every key as the panel does, the history keys one level down too', () => {
    expect(settingLabel('pricing', 'pricePerGramCents')).toBe('Price per gram');
    expect(settingLabel('pricing', 'infillByStrength.5')).toBe('Infill for Solid (5/5)');
    expect(settingLabel('pricing', 'quantityTiers.0.percent')).toBe('Quantity discount 1: percent off');
    expect(settingLabel('shipping', 'CA')).toBe('Shipping to Canada');
    expect(settingLabel('shipping', 'US.1.transitDays.max')).toBe(
      'Shipping to United States, method 2: most transit days',
    );
    expect(settingLabel('production', 'holidays.extraDays')).toBe('Extra closure days');
    expect(settingLabel('production', 'holidays.extraDays.3')).toBe('Extra closure days');
    expect(settingLabel('production', 'cutoff')).toBe('Daily cut-off');
  });

  it('show cents as dollars and fractions as percents, and read them back exactly', () => {
    expect(toShown('dollars', 250)).toBe(2.5);
    expect(fromShown('dollars', 2.51)).toBe(251);
    expect(toShown('percent', 0.29)).toBe(29);
    expect(fromShown('percent', 29)).toBe(0.29);
    expect(toShown('number', 1.24)).toBe(1.24);
    for (const cents of [0, 1, 199, 250.5, 1_000_000])
      expect(fromShown('dollars', toShown('dollars', cents))).toBe(cents);
    for (const f of [0, 0.15, 0.25, 0.333, 1]) expect(fromShown('percent', toShown('percent', f))).toBe(f);
  });

  it('word a refused value with its limit in the unit the panel shows', () => {
    const m = (section: 'pricing' | 'shipping', issue: Parameters<typeof settingsIssueMessage>[1]) =>
      settingsIssueMessage(section, issue);
    expect(
      m('pricing', {
        code: 'too_big',
        origin: 'number',
        maximum: 1_000_000,
        inclusive: true,
        path: ['setupFeeCents'],
      }),
    ).toBe('Setup fee must be at most $10,000.00.');
    expect(
      m('pricing', {
        code: 'too_small',
        origin: 'number',
        minimum: 0,
        inclusive: false,
        path: ['densityGPerCm3'],
      }),
    ).toBe('Material density must be more than 0.');
    expect(
      m('pricing', {
        code: 'too_big',
        origin: 'array',
        maximum: 20,
        inclusive: true,
        path: ['quantityTiers'],
      }),
    ).toBe('Quantity discounts may have at most 20 entries.');
    expect(
      m('shipping', {
        code: 'invalid_type',
        expected: 'number',
        input: null,
        path: ['US', 0, 'freeFromCents'],
      }),
    ).toBe('Shipping to United States, method 1: free from must be a number.');
    expect(m('pricing', { code: 'unrecognized_keys', keys: ['a', 'b'], path: [] })).toBe(
      'Pricing: unknown settings a, b.',
    );
  });
});

describe('the quantity tiers', () => {
  it('must rise in pieces and in percent, each taking something off', () => {
    expect(tierOrderProblem([])).toBeNull();
    expect(
      tierOrderProblem([
        { minQuantity: 10, percent: 5 },
        { minQuantity: 50, percent: 10 },
      ]),
    ).toBeNull();
    expect(tierOrderProblem([{ minQuantity: 10, percent: 0 }])).toEqual({
      path: [0, 'percent'],
      message: 'Quantity discount 1: percent off must be more than 0.',
    });
    expect(
      tierOrderProblem([
        { minQuantity: 50, percent: 5 },
        { minQuantity: 10, percent: 10 },
      ])?.path,
    ).toEqual([1, 'minQuantity']);
    expect(
      tierOrderProblem([
        { minQuantity: 10, percent: 10 },
        { minQuantity: 50, percent: 10 },
      ])?.path,
    ).toEqual([1, 'percent']);
  });
});
