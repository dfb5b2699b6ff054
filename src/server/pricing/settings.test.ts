import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/test-db.ts';
import { DEFAULT_PRICING, mergePricing } from './settings.ts';
import { loadPricingOverrides, loadPricingSettings, savePricingOverrides } from './settings-repository.ts';

describe('mergePricing', () => {
  it('answers the defaults for nothing stored', () => {
    expect(mergePricing(undefined)).toEqual(DEFAULT_PRICING);
    expect(mergePricing({})).toEqual(DEFAULT_PRICING);
    expect(mergePricing('nonsense')).toEqual(DEFAULT_PRICING);
  });

  it('lays partial overrides over the defaults, infill strength by strength', () => {
    const merged = mergePricing({ minimumCents: 1500, infillByStrength: { '3': 0.3 } });
    expect(merged.minimumCents).toBe(1500);
    expect(merged.infillByStrength).toEqual({ '1': 0, '2': 0.15, '3': 0.3, '4': 0.5, '5': 1 });
    expect(merged.setupFeeCents).toBe(DEFAULT_PRICING.setupFeeCents);
  });

  it('ignores invalid or unknown keys one by one, keeping the valid ones', () => {
    const merged = mergePricing({
      minimumCents: 0,
      printSpeedCm3PerHour: -3,
      densityGPerCm3: 'heavy',
      hourlyRateCents: 300,
      somethingElse: 1,
    });
    expect(merged.minimumCents).toBe(DEFAULT_PRICING.minimumCents);
    expect(merged.printSpeedCm3PerHour).toBe(DEFAULT_PRICING.printSpeedCm3PerHour);
    expect(merged.densityGPerCm3).toBe(DEFAULT_PRICING.densityGPerCm3);
    expect(merged.hourlyRateCents).toBe(300);
  });

  it('takes a minimum wall from 0 to 20 mm (0.8 by default)', () => {
    expect(DEFAULT_PRICING.minWallMm).toBe(0.8);
    expect(mergePricing({ minWallMm: 0.45 }).minWallMm).toBe(0.45);
    expect(mergePricing({ minWallMm: 0 }).minWallMm).toBe(0);
    for (const bad of [-0.1, 21, 'thin', null]) expect(mergePricing({ minWallMm: bad }).minWallMm).toBe(0.8);
  });

  it('never changes the defaults object', () => {
    mergePricing({ infillByStrength: { '1': 0.9 } });
    expect(DEFAULT_PRICING.infillByStrength['1']).toBe(0);
  });
});

describe('settings repository', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('reads the defaults without a row, then the saved overrides', async () => {
    expect(await loadPricingSettings(database.db)).toEqual(DEFAULT_PRICING);
    const saved = await savePricingOverrides(
      database.db,
      { setupFeeCents: 500, quantityTiers: [] },
      { userId: null, now: new Date() },
    );
    expect(saved.setupFeeCents).toBe(500);
    expect(await loadPricingSettings(database.db)).toEqual({
      ...DEFAULT_PRICING,
      setupFeeCents: 500,
      quantityTiers: [],
    });
    expect(await loadPricingOverrides(database.db)).toEqual({ setupFeeCents: 500, quantityTiers: [] });
  });

  it('refuses to save an invalid or unknown value, keeping what was there', async () => {
    const by = { userId: null, now: new Date() };
    await expect(savePricingOverrides(database.db, { minimumCents: 0 }, by)).rejects.toBeInstanceOf(ZodError);
    await expect(savePricingOverrides(database.db, { madeUp: 1 }, by)).rejects.toBeInstanceOf(ZodError);
    expect((await loadPricingSettings(database.db)).setupFeeCents).toBe(500);
  });
});
