import { describe, expect, it } from 'vitest';
import type { ShopPricing } from '../../shared/shipping.ts';
import { minimumNote, tiersText } from './price-notes.ts';

// Issue #26: "why every strength costs $12.00", and the quantity discounts before a line reaches one.

const PRICING: ShopPricing = {
  minimumCents: 1200,
  quantityTiers: [
    { minQuantity: 10, percent: 5 },
    { minQuantity: 50, percent: 10 },
  ],
};
const SMALL = { '1': 12, '2': 12, '3': 12, '4': 12, '5': 12 };
// The 60 x 40 x 30 mm block of e2e/upload.spec.ts: Hollow to Standard at the minimum.
const BLOCK = { '1': 12, '2': 12, '3': 12, '4': 14.48, '5': 22.46 };
const BIG = { '1': 25.1, '2': 31.2, '3': 40, '4': 55.5, '5': 80 };

describe('minimumNote', () => {
  it('says a small part costs the minimum at every strength, and that discounts stop there', () => {
    expect(minimumNote({ prices: SMALL, strength: 3, unitPrice: 12, pricing: PRICING })).toBe(
      'Small part: the $12.00 minimum price applies to every strength, and quantity discounts do not go below it.',
    );
    expect(
      minimumNote({ prices: SMALL, strength: 3, unitPrice: 12, pricing: { ...PRICING, quantityTiers: [] } }),
    ).toBe('Small part: the $12.00 minimum price applies to every strength.');
  });

  it('names the strengths at the minimum when only some are', () => {
    const note =
      'The $12.00 minimum price applies to Hollow, Light, and Standard; quantity discounts do not go below it.';
    expect(minimumNote({ prices: BLOCK, strength: 3, unitPrice: 12, pricing: PRICING })).toBe(note);
    // The same note whichever strength is chosen: it says why those strengths cost the same.
    expect(minimumNote({ prices: BLOCK, strength: 5, unitPrice: 22.46, pricing: PRICING })).toBe(note);
  });

  it('counts the chosen strength when its quote is the minimum, whatever the list said', () => {
    expect(minimumNote({ prices: BIG, strength: 1, unitPrice: 12, pricing: PRICING })).toBe(
      'The $12.00 minimum price applies to Hollow; quantity discounts do not go below it.',
    );
  });

  it('follows the minimum the shop set, not $12.00', () => {
    // A shop whose minimum is $10.00: a part at $12.00 is above it.
    expect(
      minimumNote({ prices: SMALL, strength: 3, unitPrice: 12, pricing: { ...PRICING, minimumCents: 1000 } }),
    ).toBeNull();
    const fifteen = { '1': 15, '2': 15, '3': 15, '4': 15, '5': 15 };
    expect(
      minimumNote({
        prices: fifteen,
        strength: 2,
        unitPrice: 15,
        pricing: { ...PRICING, minimumCents: 1500 },
      }),
    ).toBe(
      'Small part: the $15.00 minimum price applies to every strength, and quantity discounts do not go below it.',
    );
  });

  it('says nothing when no price is the minimum, or while the pricing is unknown', () => {
    expect(minimumNote({ prices: BIG, strength: 3, unitPrice: 40, pricing: PRICING })).toBeNull();
    expect(minimumNote({ prices: SMALL, strength: 3, unitPrice: 12, pricing: undefined })).toBeNull();
  });
});

describe('tiersText', () => {
  it('lists the discounts a card can reach', () => {
    expect(tiersText(PRICING)).toBe('5% off from 10, 10% off from 50.');
    expect(tiersText({ minimumCents: 1200, quantityTiers: [{ minQuantity: 20, percent: 7.5 }] })).toBe(
      '7.5% off from 20.',
    );
    // A line holds at most 100 pieces: a tier from 250 is never reached on a card.
    expect(
      tiersText({ ...PRICING, quantityTiers: [...PRICING.quantityTiers, { minQuantity: 250, percent: 15 }] }),
    ).toBe('5% off from 10, 10% off from 50.');
  });

  it('says nothing without discounts, or while the pricing is unknown', () => {
    expect(tiersText({ minimumCents: 1200, quantityTiers: [] })).toBeNull();
    expect(tiersText(undefined)).toBeNull();
  });
});
