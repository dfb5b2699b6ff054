import { STRENGTHS, type Strength } from '../../shared/catalog.ts';
import { formatCents, formatNumber } from '../../shared/format.ts';
import type { ModelPayload } from '../../shared/models.ts';
import type { ShopPricing } from '../../shared/shipping.ts';
import { listPrice, MAX_QUANTITY } from './choices.ts';

// Issue #26: why several strengths cost the same (the minimum price per piece), and which quantity discounts
// exist before a line reaches one. Both from the shop's pricing (GET /api/shop), never from numbers of ours.

const names = new Intl.ListFormat('en-US', { style: 'long', type: 'conjunction' });
const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * The note beside the strength choice while a price is the minimum: every strength ("Small part"), or the
 * strengths that are (the chosen one always, when its quote is the minimum). Null when no price is.
 */
export function minimumNote(input: {
  prices: ModelPayload['prices'];
  strength: Strength;
  /** The chosen strength's unit price in dollars (the quote's, or the list price until it answers). */
  unitPrice: number;
  pricing: ShopPricing | undefined;
}): string | null {
  const { pricing } = input;
  if (!pricing) return null;
  // No price is below the minimum: one that is not above it is the minimum.
  const atMinimum = STRENGTHS.filter(
    (s) =>
      cents(listPrice(input, s.level)) <= pricing.minimumCents ||
      (s.level === input.strength && cents(input.unitPrice) <= pricing.minimumCents),
  );
  if (atMinimum.length === 0) return null;
  const minimum = formatCents(pricing.minimumCents);
  const discounts = pricing.quantityTiers.length > 0;
  if (atMinimum.length === STRENGTHS.length) {
    return `Small part: the ${minimum} minimum price applies to every strength${discounts ? ', and quantity discounts do not go below it' : ''}.`;
  }
  const which = names.format(atMinimum.map((s) => s.label));
  return `The ${minimum} minimum price applies to ${which}${discounts ? '; quantity discounts do not go below it' : ''}.`;
}

/** '5% off from 10, 10% off from 50.': the discounts a card's quantity can reach; null without one. */
export function tiersText(pricing: ShopPricing | undefined): string | null {
  const tiers = (pricing?.quantityTiers ?? []).filter((t) => t.minQuantity <= MAX_QUANTITY);
  if (tiers.length === 0) return null;
  const parts = tiers.map(
    (t) => `${percentFormat.format(t.percent)}% off from ${formatNumber(t.minQuantity, 0)}`,
  );
  return `${parts.join(', ')}.`;
}
