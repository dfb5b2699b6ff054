import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { type LinePrice, type Measure, priceLine } from './price.ts';
import type { PricingSettings } from './settings.ts';
import { loadPricingSettings } from './settings-repository.ts';

// Prices a model row: the upload answer, the quote and the checkout all go through here, so the price a
// customer sees is the price they are charged. The row's measurements already include its scale.

export type PricedModel = Pick<Model, 'volumeMm3' | 'areaMm2' | 'dimX' | 'dimY' | 'dimZ'>;
export type LineChoice = { strength: number; quantity: number };

export function measureOf(model: PricedModel): Measure {
  return {
    volumeCm3: model.volumeMm3 / 1000,
    areaCm2: model.areaMm2 / 100,
    boxCm3: (model.dimX * model.dimY * model.dimZ) / 1000,
  };
}

export function priceModelLine(model: PricedModel, line: LineChoice, s: PricingSettings): LinePrice {
  return priceLine(measureOf(model), line.strength, line.quantity, s);
}

/** Cents as dollars with 2 decimals (1234 -> 12.34). */
export function dollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** One piece at each strength, in dollars: the upload answer's `prices`. */
export function pricesByStrength(model: PricedModel, s: PricingSettings) {
  const at = (strength: number) => dollars(priceModelLine(model, { strength, quantity: 1 }, s).unitCents);
  return { '1': at(1), '2': at(2), '3': at(3), '4': at(4), '5': at(5) };
}

/** What an order item keeps of how its price was made (`order_items.breakdown`). */
export function lineBreakdown(p: LinePrice): Record<string, number> {
  return {
    printedVolumeCm3: round(p.printedVolumeCm3, 3),
    grams: round(p.grams, 2),
    hours: round(p.hours, 3),
    setupCents: round(p.setupCents, 2),
    materialCents: round(p.materialCents, 2),
    machineCents: round(p.machineCents, 2),
    minimumApplied: p.minimumApplied ? 1 : 0,
    unitCents: p.unitCents,
    subtotalCents: p.subtotalCents,
    discountPercent: p.discountPercent,
    discountCents: p.discountCents,
    lineCents: p.lineCents,
  };
}

/**
 * For the checkout: the server's own price of one cart line, from the model row and the settings in
 * force (the client's `cost` is never used). Throws PricingInputError on a strength or quantity out of range.
 */
export async function priceCartLine(db: Db, model: PricedModel, line: LineChoice): Promise<LinePrice> {
  return priceModelLine(model, line, await loadPricingSettings(db));
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
