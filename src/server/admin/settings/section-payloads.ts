import { isDeepStrictEqual } from 'node:util';
import type {
  AdminPricingPayload,
  AdminProductionPayload,
  AdminShippingPayload,
  AdminShopPayload,
} from '../../../shared/admin-settings.ts';
import { DEFAULT_SHIPPING } from '../../../shared/shipping.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { DEFAULT_PRICING, type PricingSettings } from '../../pricing/settings.ts';
import { loadPricingSettings } from '../../pricing/settings-repository.ts';
import { loadShopValues, type ShopSettingsValues, shopDefaults } from '../../settings/shop-settings.ts';
import { DEFAULT_PRODUCTION, type ProductionSettings } from '../../shipping/production-settings.ts';
import { queueHours } from '../../shipping/queue-load.ts';
import { loadProductionSettings, loadShippingSettings } from '../../shipping/settings-repository.ts';
import { shipByFor } from '../../shipping/ship-by.ts';

// What GET (and a PUT, after saving) answers for each section: the values in force, the defaults in code and
// the keys that differ from them.

/** The keys (one level down for objects of parts) whose value in force is not the default. */
function overriddenKeys(
  values: Record<string, unknown>,
  defaults: Record<string, unknown>,
  nested: string[],
) {
  const keys: string[] = [];
  for (const key of Object.keys(defaults)) {
    if (nested.includes(key)) {
      const v = (values[key] ?? {}) as Record<string, unknown>;
      const d = defaults[key] as Record<string, unknown>;
      for (const part of new Set([...Object.keys(d), ...Object.keys(v)])) {
        if (!isDeepStrictEqual(v[part], d[part])) keys.push(`${key}.${part}`);
      }
    } else if (!isDeepStrictEqual(values[key], defaults[key])) {
      keys.push(key);
    }
  }
  return keys;
}

export function pricingPayload(values: PricingSettings): AdminPricingPayload {
  return {
    values,
    defaults: DEFAULT_PRICING,
    overridden: overriddenKeys(values, DEFAULT_PRICING, ['infillByStrength']),
  };
}

export async function loadPricingPayload(db: Db): Promise<AdminPricingPayload> {
  return pricingPayload(await loadPricingSettings(db));
}

export async function loadShippingPayload(db: Db): Promise<AdminShippingPayload> {
  const values = await loadShippingSettings(db);
  return { values, defaults: DEFAULT_SHIPPING, overridden: overriddenKeys(values, DEFAULT_SHIPPING, []) };
}

/** The production settings in force, with the ship-by day of an order paid now (the queue as it is). */
export async function productionPayload(
  db: Db,
  values: ProductionSettings,
  now: Date,
): Promise<AdminProductionPayload> {
  const queue = await queueHours(db);
  return {
    values,
    defaults: DEFAULT_PRODUCTION,
    overridden: overriddenKeys(values, DEFAULT_PRODUCTION, ['holidays']),
    preview: {
      at: now.toISOString(),
      shipBy: shipByFor({ now, queueHours: queue, ownHours: 0, production: values }),
      queueHours: Math.round(queue * 100) / 100,
    },
  };
}

export async function loadProductionPayload(db: Db, now: Date): Promise<AdminProductionPayload> {
  return productionPayload(db, await loadProductionSettings(db), now);
}

type ShopConfig = Pick<Config, 'buildVolumeMm' | 'uploadRetentionMs'>;

/** The build volume and the upload retention in force; the defaults are the environment's. */
export function shopPayload(values: ShopSettingsValues, config: ShopConfig): AdminShopPayload {
  const defaults = shopDefaults(config);
  return { values, defaults, overridden: overriddenKeys(values, defaults, ['buildVolumeMm']) };
}

export async function loadShopPayload(db: Db, config: ShopConfig): Promise<AdminShopPayload> {
  return shopPayload(await loadShopValues(db, config), config);
}
