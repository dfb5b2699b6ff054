import type { PricingValues, ProductionValues, ShopValues } from '../../../shared/admin-settings.ts';
import type { PricingSettings } from '../../pricing/settings.ts';
import type { ShopSettingsValues } from '../../settings/shop-settings.ts';
import type { ProductionSettings } from '../../shipping/production-settings.ts';

// The panel's shapes of the settings (src/shared/admin-settings.ts) are the server's own types, or the type
// check fails: one truth for what a setting holds (the ranges are checked by the server's schemas).

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const SHAPES_AGREE: [
  Same<PricingValues, PricingSettings>,
  Same<ProductionValues, ProductionSettings>,
  Same<ShopValues, ShopSettingsValues>,
] = [true, true, true];
