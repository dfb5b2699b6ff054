import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopInfoPayload } from '../../shared/shipping.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { DEFAULT_PRICING } from './settings.ts';
import { savePricingOverrides } from './settings-repository.ts';
import { shopPricingOf } from './shop-pricing.ts';

// Issue #26: the card says why small parts all cost the minimum and which quantity discounts exist, from
// the shop's current pricing (GET /api/shop), never from numbers of its own.

describe('shopPricingOf', () => {
  it('states the minimum and the tiers as the price applies them', () => {
    expect(shopPricingOf(DEFAULT_PRICING)).toEqual({
      minimumCents: 1200,
      quantityTiers: [
        { minQuantity: 10, percent: 5 },
        { minQuantity: 50, percent: 10 },
      ],
    });
  });

  it('leaves out tiers that change no price, in order of pieces', () => {
    const tiers = [
      { minQuantity: 100, percent: 12 },
      { minQuantity: 20, percent: 0 },
      { minQuantity: 5, percent: 7.5 },
      { minQuantity: 30, percent: 5 },
    ];
    expect(shopPricingOf({ ...DEFAULT_PRICING, minimumCents: 999, quantityTiers: tiers })).toEqual({
      minimumCents: 999,
      // 0 % takes nothing off; 5 % from 30 never beats 7.5 % from 5.
      quantityTiers: [
        { minQuantity: 5, percent: 7.5 },
        { minQuantity: 100, percent: 12 },
      ],
    });
    expect(shopPricingOf({ ...DEFAULT_PRICING, quantityTiers: [] }).quantityTiers).toEqual([]);
  });
});

describe('GET /api/shop pricing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers the pricing in force: the defaults, then what the admin saved', async () => {
    const before = shopInfoPayload.parse((await t.app.inject('/api/shop')).json());
    expect(before.pricing).toEqual(shopPricingOf(DEFAULT_PRICING));
    await savePricingOverrides(
      t.database.db,
      { minimumCents: 1500, quantityTiers: [{ minQuantity: 20, percent: 8 }] },
      { userId: null, now: new Date() },
    );
    const after = shopInfoPayload.parse((await t.app.inject('/api/shop')).json());
    expect(after.pricing).toEqual({ minimumCents: 1500, quantityTiers: [{ minQuantity: 20, percent: 8 }] });
  });
});
