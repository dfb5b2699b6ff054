import { describe, expect, it } from 'vitest';
import { shippingAddress } from './address.ts';

const us = {
  name: 'Ada',
  line1: '1 Main St',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
  country: 'US',
};

describe('shippingAddress', () => {
  it('takes US ZIP and ZIP+4, Canadian postal codes (printed with their space), states in any case', () => {
    expect(shippingAddress.parse(us)).toEqual({ ...us, line2: '' });
    expect(shippingAddress.parse({ ...us, postalCode: '53703-1234', state: 'wi' })).toMatchObject({
      state: 'WI',
    });
    const ca = { ...us, country: 'CA', state: 'QC', postalCode: 'h2x1y4' };
    expect(shippingAddress.parse(ca)).toMatchObject({ postalCode: 'H2X 1Y4', state: 'QC' });
  });

  it('refuses a state of the other country, a bad code, another country and empty fields', () => {
    const bad = [
      { ...us, state: 'ON' },
      { ...us, state: 'XX' },
      { ...us, postalCode: '5370' },
      { ...us, postalCode: 'K1A 0B1' },
      { ...us, country: 'CA', state: 'ON', postalCode: 'D1A 0B1' }, // no D in Canadian codes
      { ...us, country: 'MX' },
      { ...us, name: '' },
      { ...us, line1: '   ' },
      { ...us, city: 'x'.repeat(101) },
    ];
    for (const input of bad)
      expect(shippingAddress.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });
});
