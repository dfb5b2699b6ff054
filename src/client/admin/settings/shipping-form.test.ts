import { describe, expect, it } from 'vitest';
import { DEFAULT_SHIPPING } from '../../../shared/shipping.ts';
import { formToShipping, methodIdFor, newMethodRow, shippingToForm } from './shipping-form.ts';

describe('the shipping form', () => {
  it('shows prices in dollars and reads back exactly the methods it showed', () => {
    const form = shippingToForm(DEFAULT_SHIPPING);
    expect(form.US[0]).toMatchObject({
      name: 'US Standard',
      price: '6.95',
      transitMin: '3',
      transitMax: '5',
      freeFrom: '75.00',
    });
    expect(form.US[1]!.freeFrom).toBe('');
    expect(formToShipping(form)).toEqual({ values: DEFAULT_SHIPPING });
  });

  it('gives a new method an id from its name, unique in its country; existing ids stay', () => {
    const form = shippingToForm(DEFAULT_SHIPPING);
    const pickup = { ...newMethodRow(), name: 'US Standard', price: '0', transitMin: '0', transitMax: '0' };
    const result = formToShipping({ ...form, US: [...form.US, pickup] });
    expect('values' in result && result.values.US.map((m) => m.id)).toEqual([
      'us-standard',
      'us-expedited',
      'us-us-standard',
    ]);
    expect(methodIdFor('CA', 'Purolator Ground!', new Set())).toBe('ca-purolator-ground');
    expect(methodIdFor('CA', '', new Set(['ca-method']))).toBe('ca-method-2');
  });

  it('names the method and field that is not an amount or a number', () => {
    const form = shippingToForm(DEFAULT_SHIPPING);
    const bad = { ...form, CA: [{ ...form.CA[0]!, price: 'ten' }, form.CA[1]!] };
    expect(formToShipping(bad)).toEqual({
      field: 'CA.0.priceCents',
      error: 'Shipping to Canada, method 1: price must be an amount in dollars, like 6.95.',
    });
    const noDays = { ...form, US: [{ ...form.US[0]!, transitMax: '' }] };
    expect(formToShipping(noDays)).toEqual({
      field: 'US.0.transitDays.max',
      error: 'Shipping to United States, method 1: most transit days is missing.',
    });
  });
});
