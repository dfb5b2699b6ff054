import { z } from 'zod';
import { MINIMUM_ITEM_PRICE_CENTS, type Strength } from '../../shared/catalog.ts';

// The pricing constants (docs/domain.md): defaults here, overridden key by key by the settings row
// (`settings.pricing`, id = 1) that the admin panel edits. Money is in cents; rates may hold fractions
// of a cent (5 cents a gram), prices are rounded to whole cents only at the end.

const fraction = z.number().min(0).max(1);

export const quantityTier = z.object({
  /** The discount applies from this many pieces of one line. */
  minQuantity: z.number().int().min(2).max(1_000_000),
  /** Percent off the line total. */
  percent: z.number().min(0).max(90),
});
export type QuantityTier = z.infer<typeof quantityTier>;

export const pricingSettings = z.object({
  /** Shell thickness printed solid around every model. */
  wallThicknessMm: z.number().positive().max(20),
  /**
   * The thinnest wall the printers make: no model is priced as less plastic than its area times this
   * (within its bounding box), whatever its volume says (price.ts printedVolumeCm3). 0 turns that off.
   */
  minWallMm: z.number().min(0).max(20),
  /** PLA: 1.24 g/cm3. */
  densityGPerCm3: z.number().positive().max(25),
  pricePerGramCents: z.number().min(0).max(10_000),
  /** How much plastic the printers lay down per hour. */
  printSpeedCm3PerHour: z.number().positive().max(100_000),
  hourlyRateCents: z.number().min(0).max(1_000_000),
  setupFeeCents: z.number().min(0).max(1_000_000),
  /** No item costs less (docs/domain.md: $12.00); never 0, so no price is ever 0. */
  minimumCents: z.number().int().min(1).max(10_000_000),
  /** Infill fraction by strength: 1 Hollow .. 5 Solid. */
  infillByStrength: z.object({ '1': fraction, '2': fraction, '3': fraction, '4': fraction, '5': fraction }),
  quantityTiers: z.array(quantityTier).max(20),
});
export type PricingSettings = z.infer<typeof pricingSettings>;

export const DEFAULT_PRICING: PricingSettings = {
  wallThicknessMm: 1.2,
  minWallMm: 0.8,
  densityGPerCm3: 1.24,
  pricePerGramCents: 5,
  printSpeedCm3PerHour: 12,
  hourlyRateCents: 250,
  setupFeeCents: 300,
  minimumCents: MINIMUM_ITEM_PRICE_CENTS,
  infillByStrength: { '1': 0, '2': 0.15, '3': 0.25, '4': 0.5, '5': 1 },
  quantityTiers: [
    { minQuantity: 10, percent: 5 },
    { minQuantity: 50, percent: 10 },
  ],
};

/** What the settings row may hold: any subset of the keys, infill per strength too. */
export const pricingOverrides = pricingSettings
  .extend({ infillByStrength: pricingSettings.shape.infillByStrength.partial() })
  .partial();
export type PricingOverrides = z.infer<typeof pricingOverrides>;

/**
 * The defaults with the stored overrides on top. A stored key that is not valid (hand-edited JSON, an
 * older version's name) is ignored on its own, so one bad value never throws away the others.
 */
export function mergePricing(stored: unknown): PricingSettings {
  const merged: PricingSettings = {
    ...DEFAULT_PRICING,
    infillByStrength: { ...DEFAULT_PRICING.infillByStrength },
  };
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return merged;
  const shape = pricingOverrides.shape;
  for (const [key, value] of Object.entries(stored)) {
    if (!Object.hasOwn(shape, key)) continue;
    const field = shape[key as keyof typeof shape];
    const parsed = field.safeParse(value);
    if (!parsed.success || parsed.data === undefined) continue;
    if (key === 'infillByStrength') {
      Object.assign(merged.infillByStrength, parsed.data);
    } else {
      (merged as Record<string, unknown>)[key] = parsed.data;
    }
  }
  return merged;
}

export function infillFor(settings: PricingSettings, strength: Strength): number {
  return settings.infillByStrength[String(strength) as keyof PricingSettings['infillByStrength']];
}
