import { describe, expect, it } from 'vitest';
import { moneyRows } from './money-rows.ts';

// The order detail's totals: subtotal, the shipping method and its price, the tax lines, the total.

const order = {
  subtotalCents: 2400,
  shippingCents: 695,
  taxCents: 171,
  taxLines: [{ amountCents: 171, label: 'Sales tax 5.5 % (WI)' }],
  totalCents: 3266,
  currency: 'usd',
  testMode: false,
  shipping: { method: 'US Standard' as string | null },
};
const words = (o: Partial<typeof order>) =>
  moneyRows({ ...order, ...o }).map((r) => `${r.label}: ${r.amount}${r.grand ? ' (grand)' : ''}`);

describe('moneyRows', () => {
  it('adds up subtotal, shipping with its method, each tax line and the total', () => {
    expect(words({})).toEqual([
      'Subtotal: $24.00',
      'Shipping (US Standard): $6.95',
      'Sales tax 5.5 % (WI): $1.71',
      'Total: $32.66 USD (grand)',
    ]);
    expect(
      words({
        shippingCents: 1495,
        shipping: { method: 'Canada Standard' },
        taxCents: 507,
        taxLines: [
          { amountCents: 195, label: 'GST 5 %' },
          { amountCents: 312, label: 'PST 8 %' },
        ],
        totalCents: 4402,
      }),
    ).toEqual([
      'Subtotal: $24.00',
      'Shipping (Canada Standard): $14.95',
      'GST 5 %: $1.95',
      'PST 8 %: $3.12',
      'Total: $44.02 USD (grand)',
    ]);
  });

  it('says Free shipping, one Tax line without a breakdown (or one that does not add up), and $0.00 tax', () => {
    expect(words({ shippingCents: 0, shipping: { method: null }, totalCents: 2571 })[1]).toBe(
      'Shipping: Free',
    );
    expect(words({ shippingCents: 0, totalCents: 2571 })[1]).toBe('Shipping (US Standard): Free');
    expect(words({ taxLines: [] })[2]).toBe('Tax: $1.71');
    expect(words({ taxLines: [{ amountCents: 100, label: 'Sales tax' }] })[2]).toBe('Tax: $1.71');
    expect(words({ taxCents: 0, taxLines: [], totalCents: 3095 })[2]).toBe('Tax: $0.00');
    expect(words({ taxCents: 0, taxLines: [], totalCents: 3095, testMode: true })[2]).toBe(
      'Tax: None (test order)',
    );
  });
});
