import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';
import { mergePricing, type PricingOverrides, type PricingSettings, pricingOverrides } from './settings.ts';

// The shop's one settings row (id = 1). Missing row or missing keys: the defaults in code.

const SETTINGS_ID = 1;

/** The pricing in force: stored overrides merged on the defaults. */
export async function loadPricingSettings(db: Db): Promise<PricingSettings> {
  const [row] = await db
    .select({ pricing: settings.pricing })
    .from(settings)
    .where(eq(settings.id, SETTINGS_ID))
    .limit(1);
  return mergePricing(row?.pricing);
}

/** The overrides as stored (for the admin form: what differs from the defaults). */
export async function loadPricingOverrides(db: Db): Promise<Record<string, unknown>> {
  const [row] = await db
    .select({ pricing: settings.pricing })
    .from(settings)
    .where(eq(settings.id, SETTINGS_ID))
    .limit(1);
  return row?.pricing ?? {};
}

/**
 * Replaces the stored overrides (validated: unknown keys or bad values throw a ZodError, a 400 through
 * the error handler) and answers the pricing now in force.
 */
export async function savePricingOverrides(
  db: Db,
  overrides: unknown,
  by: { userId: number | null; now: Date },
): Promise<PricingSettings> {
  const parsed: PricingOverrides = pricingOverrides.strict().parse(overrides);
  await db
    .insert(settings)
    .values({ id: SETTINGS_ID, pricing: parsed, updatedAt: by.now, updatedBy: by.userId })
    .onConflictDoUpdate({
      target: settings.id,
      set: { pricing: parsed, updatedAt: by.now, updatedBy: by.userId },
    });
  return mergePricing(parsed);
}
