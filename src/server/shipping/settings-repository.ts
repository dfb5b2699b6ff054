import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import { shippingValues } from '../../shared/admin-settings.ts';
import { SHIPPING_COUNTRIES } from '../../shared/catalog.ts';
import { DEFAULT_SHIPPING, type ShippingSettings, shippingSettings } from '../../shared/shipping.ts';
import { recordSettingChanges } from '../admin/settings/history.ts';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';
import { type ChangedBy, lockSettingsRow, SETTINGS_ID } from '../pricing/settings-repository.ts';
import {
  DEFAULT_PRODUCTION,
  holidaySettings,
  mergeProduction,
  type ProductionOverrides,
  type ProductionSettings,
  productionOverrides,
  productionSettings,
} from './production-settings.ts';

// The shipping methods and the production capacity in force: the settings row's (id = 1) stored values
// over the defaults in code. Read on every quote, so a change shows at once on every instance. Saves are
// transactions on the locked row that record what changed in the settings history (who, when, old -> new).

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

/** The countries whose methods differ from the defaults: what is stored. */
export function shippingOverridesOf(value: ShippingSettings): Partial<ShippingSettings> {
  return Object.fromEntries(
    SHIPPING_COUNTRIES.filter((c) => !isDeepStrictEqual(value[c], DEFAULT_SHIPPING[c])).map((c) => [
      c,
      value[c],
    ]),
  );
}

/**
 * Replaces the shipping methods (both countries, validated: a ZodError is a 400 through the error handler and
 * nothing is written); a country equal to its defaults is not stored. Records each country whose methods
 * changed in the settings history, in the same transaction.
 */
export async function saveShippingSettings(db: Db, value: unknown, by: ChangedBy): Promise<ShippingSettings> {
  const parsed = shippingValues.parse(value);
  return db.transaction(async (tx) => {
    const row = await lockSettingsRow(tx);
    const before = mergeShipping(row.shipping);
    const stored = shippingOverridesOf(parsed);
    await tx
      .update(settings)
      .set({ shipping: stored, updatedAt: by.now, updatedBy: by.userId })
      .where(eq(settings.id, SETTINGS_ID));
    const after = mergeShipping(stored);
    await recordSettingChanges(tx, 'shipping', before, after, by);
    return after;
  });
}

/** The production settings one level down, for the history: each part of the holidays is its own key. */
export function productionHistoryView(p: ProductionSettings): Record<string, unknown> {
  const { holidays, ...rest } = p;
  const view: Record<string, unknown> = { ...rest };
  for (const [key, value] of Object.entries(holidays)) view[`holidays.${key}`] = value;
  return view;
}

/** The full production settings as the admin saves them: every key, no unknown one, a region of the country. */
export const productionValuesSchema = productionSettings
  .extend({ holidays: holidaySettings.strict() })
  .strict();

/** What differs from the defaults: the overrides to store for these full values (holidays part by part). */
export function productionOverridesOf(values: ProductionSettings): ProductionOverrides {
  const overrides: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'holidays') continue;
    if (!isDeepStrictEqual(value, DEFAULT_PRODUCTION[key as keyof ProductionSettings]))
      overrides[key] = value;
  }
  const holidays = Object.fromEntries(
    Object.entries(values.holidays).filter(
      ([key, value]) =>
        value !== undefined &&
        !isDeepStrictEqual(value, DEFAULT_PRODUCTION.holidays[key as keyof ProductionSettings['holidays']]),
    ),
  );
  if (Object.keys(holidays).length > 0) overrides.holidays = holidays;
  return overrides as ProductionOverrides;
}

/**
 * Replaces the stored production capacity overrides (validated as the shipping methods are), recording what
 * changed in force in the settings history in the same transaction; answers the settings now in force.
 */
export async function saveProductionSettings(
  db: Db,
  value: unknown,
  by: ChangedBy,
): Promise<ProductionSettings> {
  const parsed = productionOverrides.strict().parse(value);
  return db.transaction(async (tx) => {
    const row = await lockSettingsRow(tx);
    const before = mergeProduction(row.production);
    const after = mergeProduction(parsed);
    await tx
      .update(settings)
      .set({ production: parsed, updatedAt: by.now, updatedBy: by.userId })
      .where(eq(settings.id, SETTINGS_ID));
    await recordSettingChanges(
      tx,
      'production',
      productionHistoryView(before),
      productionHistoryView(after),
      by,
    );
    return after;
  });
}

/** Saves the full production settings (validated as productionValuesSchema): what differs from the defaults is stored. */
export async function saveProductionValues(
  db: Db,
  values: unknown,
  by: ChangedBy,
): Promise<ProductionSettings> {
  return saveProductionSettings(db, productionOverridesOf(productionValuesSchema.parse(values)), by);
}
