import { isStrength, type Strength } from '../../shared/catalog.ts';
import { infillFor, type PricingSettings, type QuantityTier } from './settings.ts';

// Pure price arithmetic (docs/domain.md). Inputs are guarded so that no price is ever NaN, 0 or negative:
// a bad input throws instead of pricing.

/**
 * A model's size as the price needs it. boxCm3: its bounding box's volume, the most it can hold (without
 * it, area x minimum wall is not bounded).
 */
export type Measure = { volumeCm3: number; areaCm2: number; boxCm3?: number };

export type UnitPrice = {
  strength: Strength;
  /** Shell + infill, cm3. */
  printedVolumeCm3: number;
  grams: number;
  hours: number;
  /** The parts before rounding, in (fractional) cents. */
  setupCents: number;
  materialCents: number;
  machineCents: number;
  /** The computed price was under the minimum, which was charged instead. */
  minimumApplied: boolean;
  /** What one piece costs, whole cents. */
  unitCents: number;
};

export type LinePrice = UnitPrice & {
  quantity: number;
  /** unit x quantity before the discount. */
  subtotalCents: number;
  discountPercent: number;
  discountCents: number;
  lineCents: number;
};

/** The most pieces one line may hold (the quote and cart schemas allow far fewer). */
export const MAX_LINE_QUANTITY = 1_000_000;

export class PricingInputError extends Error {}

function checkMeasure(m: Measure): void {
  for (const [name, value] of [
    ['volume', m.volumeCm3],
    ['area', m.areaCm2],
    ['size', m.boxCm3 ?? 0],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new PricingInputError(`The model's ${name} is not valid.`);
  }
}

/**
 * Printed volume: the shell (area x wall, never more than the model) plus the infill of the rest; and never
 * less than the model's walls need, so that no closed surface (paper-thin walls, sheets on top of each
 * other) is priced as nearly nothing. A wall has two faces, so the thinnest printable model of area A holds
 * A / 2 x minWallMm, within its bounding box. A model with more volume than that (a solid, or a vase with
 * walls of the minimum or thicker) is priced as before.
 */
export function printedVolumeCm3(m: Measure, infill: number, wallThicknessMm: number, minWallMm = 0): number {
  const shell = Math.min(m.volumeCm3, m.areaCm2 * (wallThicknessMm / 10));
  const walls = Math.min(m.boxCm3 ?? Number.POSITIVE_INFINITY, (m.areaCm2 / 2) * (minWallMm / 10));
  return Math.max(shell + infill * (m.volumeCm3 - shell), walls);
}

export function priceUnit(m: Measure, strength: number, s: PricingSettings): UnitPrice {
  checkMeasure(m);
  if (!isStrength(strength)) throw new PricingInputError('The strength must be 1 to 5.');
  const printed = printedVolumeCm3(m, infillFor(s, strength), s.wallThicknessMm, s.minWallMm);
  const grams = printed * s.densityGPerCm3;
  const hours = printed / s.printSpeedCm3PerHour;
  const materialCents = grams * s.pricePerGramCents;
  const machineCents = hours * s.hourlyRateCents;
  const computed = Math.round(s.setupFeeCents + materialCents + machineCents);
  const minimum = Math.max(1, Math.round(s.minimumCents));
  const unitCents = Math.max(minimum, computed);
  if (!Number.isSafeInteger(unitCents)) throw new PricingInputError('The model is too large to price.');
  return {
    strength,
    printedVolumeCm3: printed,
    grams,
    hours,
    setupCents: s.setupFeeCents,
    materialCents,
    machineCents,
    minimumApplied: computed < minimum,
    unitCents,
  };
}

/** The best tier the quantity reaches (tiers need not be sorted); 0 without one. */
export function discountPercentFor(quantity: number, tiers: readonly QuantityTier[]): number {
  let best = 0;
  for (const t of tiers) if (quantity >= t.minQuantity && t.percent > best) best = t.percent;
  return Math.min(best, 90);
}

export function priceLine(m: Measure, strength: number, quantity: number, s: PricingSettings): LinePrice {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) {
    throw new PricingInputError('The quantity must be a whole number of at least 1.');
  }
  const unit = priceUnit(m, strength, s);
  const subtotalCents = unit.unitCents * quantity;
  const tierPercent = discountPercentFor(quantity, s.quantityTiers);
  // The minimum is per piece (SPEC: "Minimum price $12.00 per item"): the discount never takes a piece
  // below it, so it stops there.
  const floorCents = Math.max(1, Math.round(s.minimumCents)) * quantity;
  const lineCents = Math.min(
    subtotalCents,
    Math.max(subtotalCents - Math.round((subtotalCents * tierPercent) / 100), floorCents),
  );
  const discountCents = subtotalCents - lineCents;
  const discountPercent = discountCents > 0 ? tierPercent : 0;
  if (!Number.isSafeInteger(lineCents) || lineCents < 1) {
    throw new PricingInputError('The line cannot be priced.');
  }
  return { ...unit, quantity, subtotalCents, discountPercent, discountCents, lineCents };
}
