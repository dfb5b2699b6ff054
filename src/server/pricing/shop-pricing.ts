import type { ShopPricing } from '../../shared/shipping.ts';
import { discountPercentFor } from './price.ts';
import type { PricingSettings } from './settings.ts';

// The price rules GET /api/shop tells every page (the card's minimum note and quantity discounts), as
// priceLine applies them: the minimum it charges, and only the tiers that change a price, by pieces.

export function shopPricingOf(s: PricingSettings): ShopPricing {
  const tiers = [...s.quantityTiers].sort((a, b) => a.minQuantity - b.minQuantity);
  const quantityTiers: ShopPricing['quantityTiers'] = [];
  for (const t of tiers) {
    const percent = discountPercentFor(t.minQuantity, tiers);
    const before = quantityTiers.at(-1)?.percent ?? 0;
    if (percent > before) quantityTiers.push({ minQuantity: t.minQuantity, percent });
  }
  return { minimumCents: Math.max(1, Math.round(s.minimumCents)), quantityTiers };
}
