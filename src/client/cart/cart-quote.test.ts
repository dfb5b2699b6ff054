import { describe, expect, it } from 'vitest';
import type { CartQuotePayload } from '../../shared/checkout.ts';
import type { CartItem } from './cart-item.ts';
import { cartQuoteRequest, readCartQuote } from './cart-quote.ts';

// The cart quote's request and the light reading of its answer (no schema library in the cart's chunk).

const standard = {
  id: 'us-standard',
  name: 'US Standard',
  priceCents: 695,
  listPriceCents: 695,
  freeFromCents: 7500,
  transitDays: { min: 3, max: 5 },
  shipBy: '2026-12-01',
  arrivesFrom: '2026-12-04',
  arrivesBy: '2026-12-08',
};
const payload: CartQuotePayload = {
  currency: 'usd',
  lines: [{ unitPrice: 22.46, lineTotal: 44.92, discountPercent: 0 }],
  total: 44.92,
  shipping: { shipTo: 'US', options: [standard] },
  tax: 'automatic',
};

describe('readCartQuote', () => {
  it('reads the lines, the shipping offers and the tax mode', () => {
    expect(readCartQuote(JSON.parse(JSON.stringify(payload)), 1)).toEqual(payload);
    const refused = { ...payload, lines: [{ error: 'No.' }], total: 0, shipping: null };
    expect(readCartQuote(refused, 1)).toEqual(refused);
  });

  it('refuses an answer whose shipping or tax it cannot show', () => {
    expect(readCartQuote({ ...payload, tax: undefined }, 1)).toBeNull();
    expect(readCartQuote({ ...payload, shipping: undefined }, 1)).toBeNull();
    expect(readCartQuote({ ...payload, shipping: { shipTo: 'MX', options: [standard] } }, 1)).toBeNull();
    const noDate = { ...standard, shipBy: 'Tuesday' };
    expect(readCartQuote({ ...payload, shipping: { shipTo: 'US', options: [noDate] } }, 1)).toBeNull();
    expect(readCartQuote(payload, 2)).toBeNull();
  });
});

describe('cartQuoteRequest', () => {
  const item = {
    filePath: 'm_cube',
    fileName: 'cube.stl',
    color: '#007bff',
    strength: 3,
    quantity: 2,
  } as CartItem;
  it("names the chosen country, or none for the server's default", () => {
    expect(cartQuoteRequest([item], 'CA')).toEqual({
      items: [{ modelId: 'm_cube', fileName: 'cube.stl', color: '#007bff', strength: 3, quantity: 2 }],
      shipTo: 'CA',
    });
    expect(cartQuoteRequest([item], null)).not.toHaveProperty('shipTo');
  });
});
