import { eq } from 'drizzle-orm';
import { DEFAULT_SHIPPING, type ShippingSettings, shippingSettings } from '../../shared/shipping.ts';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';
import { mergeProduction, type ProductionSettings, productionOverrides } from './production-settings.ts';

// The shipping methods and the production capacity in force: the settings row's (id = 1) stored values
// over the defaults in code. Read on every quote, so a change shows at once on every instance.

const SETTINGS_ID = 1;

/**
 * Each country's stored list, when it is valid as a whole (a list is one setting: half of one would offer
 * methods nobody chose); else that country's defaults.
 */
export function mergeShipping(stored: unknown): ShippingSettings {
  const merged: ShippingSettings = { US: DEFAULT_SHIPPING.US, CA: DEFAULT_SHIPPING.CA };
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return merged;
  for (const country of ['US', 'CA'] as const) {
    const parsed = shippingSettings.shape[country].safeParse((stored as Record<string, unknown>)[country]);
    if (parsed.success) merged[country] = parsed.data;
  }
  return merged;
}

async function settingsRow(db: Db) {
  const [row] = await db
    .select({ shipping: settings.shipping, production: settings.production })
    .from(settings)
    .where(eq(settings.id, SETTINGS_ID))
    .limit(1);
  return row;
}

export async function loadShippingSettings(db: Db): Promise<ShippingSettings> {
  return mergeShipping((await settingsRow(db))?.shipping);
}

export async function loadProductionSettings(db: Db): Promise<ProductionSettings> {
  return mergeProduction((await settingsRow(db))?.production);
}

/** Both at once (one read): what a quote and a checkout need. */
export async function loadDeliverySettings(db: Db) {
  const row = await settingsRow(db);
  return { shipping: mergeShipping(row?.shipping), production: mergeProduction(row?.production) };
}

/** Replaces the stored shipping methods (validated: a ZodError is a 400 through the error handler). */
export async function saveShippingSettings(db: Db, value: unknown, by: { userId: number | null; now: Date }) {
  const parsed = shippingSettings.strict().parse(value);
  await db
    .insert(settings)
    .values({ id: SETTINGS_ID, shipping: parsed, updatedAt: by.now, updatedBy: by.userId })
    .onConflictDoUpdate({
      target: settings.id,
      set: { shipping: parsed, updatedAt: by.now, updatedBy: by.userId },
    });
  return parsed;
}

/** Replaces the stored production capacity overrides (validated as the shipping methods are). */
export async function saveProductionSettings(
  db: Db,
  value: unknown,
  by: { userId: number | null; now: Date },
) {
  const parsed = productionOverrides.strict().parse(value);
  await db
    .insert(settings)
    .values({ id: SETTINGS_ID, production: parsed, updatedAt: by.now, updatedBy: by.userId })
    .onConflictDoUpdate({
      target: settings.id,
      set: { production: parsed, updatedAt: by.now, updatedBy: by.userId },
    });
  return mergeProduction(parsed);
}
