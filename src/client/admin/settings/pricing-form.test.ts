import { describe, expect, it } from 'vitest';
import type { PricingValues } from '../../../shared/admin-settings.ts';
import { readNumber } from './form-numbers.ts';
import { formToPricing, newTierRow, pricingToForm } from './pricing-form.ts';

const VALUES: PricingValues = {
  wallThicknessMm: 1.2,
  minWallMm: 0.8,
  densityGPerCm3: 1.24,
  pricePerGramCents: 5,
  printSpeedCm3PerHour: 12,
  hourlyRateCents: 250,
  setupFeeCents: 300,
  minimumCents: 1200,
  infillByStrength: { '1': 0, '2': 0.15, '3': 0.25, '4': 0.5, '5': 1 },
  quantityTiers: [
    { minQuantity: 10, percent: 5 },
    { minQuantity: 50, percent: 10 },
  ],
};

describe('the pricing form', () => {
  it('shows money in dollars, the price per gram in cents and infill in percent', () => {
    const form = pricingToForm(VALUES);
    expect(form.fields).toMatchObject({
      pricePerGramCents: '5',
      hourlyRateCents: '2.50',
      setupFeeCents: '3.00',
      minimumCents: '12.00',
      wallThicknessMm: '1.2',
      'infillByStrength.2': '15',
      'infillByStrength.5': '100',
    });
    expect(form.tiers.map((t) => [t.minQuantity, t.percent])).toEqual([
      ['10', '5'],
      ['50', '10'],
    ]);
  });

  it('reads back exactly the values it showed, and what is typed in the units shown', () => {
    const form = pricingToForm(VALUES);
    expect(formToPricing(form)).toEqual({ values: VALUES });
    const typed = {
      ...form,
      fields: {
        ...form.fields,
        hourlyRateCents: '$2.51',
        minimumCents: '1,250',
        'infillByStrength.3': '29',
        pricePerGramCents: ' 7.5 ',
      },
      tiers: [...form.tiers, newTierRow('100', '12.5')],
    };
    expect(formToPricing(typed)).toEqual({
      values: {
        ...VALUES,
        hourlyRateCents: 251,
        minimumCents: 125000,
        pricePerGramCents: 7.5,
        infillByStrength: { ...VALUES.infillByStrength, '3': 0.29 },
        quantityTiers: [...VALUES.quantityTiers, { minQuantity: 100, percent: 12.5 }],
      },
    });
  });

  it('names the first field that is not a number, as the server would', () => {
    const form = pricingToForm(VALUES);
    expect(formToPricing({ ...form, fields: { ...form.fields, setupFeeCents: '' } })).toEqual({
      field: 'setupFeeCents',
      error: 'Setup fee is missing.',
    });
    expect(formToPricing({ ...form, fields: { ...form.fields, 'infillByStrength.4': 'half' } })).toEqual({
      field: 'infillByStrength.4',
      error: 'Infill for Heavy (4/5) must be a number.',
    });
    expect(formToPricing({ ...form, tiers: [newTierRow('10', '')] })).toEqual({
      field: 'quantityTiers.0.percent',
      error: 'Quantity discount 1: percent off is missing.',
    });
  });

  it('takes numbers as people type them, and nothing else', () => {
    expect(readNumber('12')).toBe(12);
    expect(readNumber('$1,012.50')).toBe(1012.5);
    expect(readNumber('.5')).toBe(0.5);
    expect(readNumber('-1')).toBe(-1);
    for (const bad of ['', ' ', 'abc', '1e3', '1.2.3', '12abc', 'Infinity'])
      expect(readNumber(bad)).toBeNull();
  });
});
