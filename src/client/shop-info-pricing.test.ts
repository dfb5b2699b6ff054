import { describe, expect, it } from 'vitest';
import { DEFAULT_SHIPPING } from '../shared/shipping.ts';
import { readShopInfo } from './shop-info.ts';

// GET /api/shop's price rules (issue #26), read without a schema library: an answer without them, or with
// rules it cannot read, still gives the rest (taxes, shipping), and the card then says nothing about prices.

const base = { testMode: true, paymentMode: 'simulator', tax: 'test', shipping: DEFAULT_SHIPPING };
const pricing = {
  minimumCents: 1200,
  quantityTiers: [
    { minQuantity: 10, percent: 5 },
    { minQuantity: 50, percent: 10 },
  ],
};

describe('readShopInfo pricing', () => {
  it('reads the minimum and the quantity discounts', () => {
    expect(readShopInfo({ ...base, pricing })?.pricing).toEqual(pricing);
    expect(readShopInfo({ ...base, pricing: { minimumCents: 999, quantityTiers: [] } })?.pricing).toEqual({
      minimumCents: 999,
      quantityTiers: [],
    });
  });

  it('leaves out rules it cannot read, keeping the rest', () => {
    for (const bad of [
      undefined,
      null,
      'cheap',
      { minimumCents: 0, quantityTiers: [] },
      { minimumCents: 12.5, quantityTiers: [] },
      { minimumCents: 1200 },
      { minimumCents: 1200, quantityTiers: [{ minQuantity: 10 }] },
      { minimumCents: 1200, quantityTiers: [{ minQuantity: 0, percent: 5 }] },
      { minimumCents: 1200, quantityTiers: [{ minQuantity: 10, percent: 100 }] },
      { minimumCents: 1200, quantityTiers: [null] },
    ]) {
      const info = readShopInfo({ ...base, pricing: bad });
      expect(info, JSON.stringify(bad)).not.toBeNull();
      expect(info?.pricing, JSON.stringify(bad)).toBeUndefined();
      expect(info?.shipping).toEqual(DEFAULT_SHIPPING);
    }
  });
});
