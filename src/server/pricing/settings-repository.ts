import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { tierOrderProblem } from '../../shared/admin-settings.ts';
import { recordSettingChanges } from '../admin/settings/history.ts';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';
import {
  DEFAULT_PRICING,
  mergePricing,
  type PricingOverrides,
  type PricingSettings,
  pricingOverrides,
  pricingSettings,
} from './settings.ts';

// The shop's one settings row (id = 1). Missing row or missing keys: the defaults in code. Every save is one
// transaction with the row locked, which records each changed value in the settings history (who, when,
// old -> new), so two admins saving at once each see the other's change as "before".

export const SETTINGS_ID = 1;

export type ChangedBy = { userId: number | null; now: Date };

/** The tiers must rise: each starts at more pieces and takes more off (a ZodError otherwise). */
function tiersRise(value: { quantityTiers?: PricingSettings['quantityTiers'] }, ctx: z.RefinementCtx) {
  const problem = value.quantityTiers ? tierOrderProblem(value.quantityTiers) : null;
  if (problem) {
    ctx.addIssue({ code: 'custom', path: ['quantityTiers', ...problem.path], message: problem.message });
  }
}

/** The full pricing as the admin saves it: every key, its range, no unknown key, tiers rising. */
export const pricingValuesSchema = pricingSettings
  .extend({ infillByStrength: pricingSettings.shape.infillByStrength.strict() })
  .strict()
  .superRefine(tiersRise);

const storedOverridesSchema = pricingOverrides
  .extend({ infillByStrength: pricingOverrides.shape.infillByStrength.unwrap().strict().optional() })
  .strict()
  .superRefine(tiersRise);

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

/** The settings row locked until the transaction ends (made first, empty, if there is none). */
export async function lockSettingsRow(tx: Db) {
  await tx.insert(settings).values({ id: SETTINGS_ID }).onConflictDoNothing();
  const [row] = await tx.select().from(settings).where(eq(settings.id, SETTINGS_ID)).for('update');
  if (!row) throw new Error('the settings row is missing');
  return row;
}

/** The pricing one level down, for the history: each strength's infill is its own key. */
export function pricingHistoryView(p: PricingSettings): Record<string, unknown> {
  const { infillByStrength, ...rest } = p;
  const view: Record<string, unknown> = { ...rest };
  for (const [level, value] of Object.entries(infillByStrength)) view[`infillByStrength.${level}`] = value;
  return view;
}

/**
 * Replaces the stored overrides (validated: unknown keys, bad values or tiers that do not rise throw a
 * ZodError, a 400 through the error handler, and nothing is written), records what changed in force in
 * the settings history in the same transaction, and answers the pricing now in force.
 */
export async function savePricingOverrides(
  db: Db,
  overrides: unknown,
  by: ChangedBy,
): Promise<PricingSettings> {
  const parsed: PricingOverrides = storedOverridesSchema.parse(overrides);
  return db.transaction(async (tx) => {
    const row = await lockSettingsRow(tx);
    const before = mergePricing(row.pricing);
    const after = mergePricing(parsed);
    await tx
      .update(settings)
      .set({ pricing: parsed, updatedAt: by.now, updatedBy: by.userId })
      .where(eq(settings.id, SETTINGS_ID));
    await recordSettingChanges(tx, 'pricing', pricingHistoryView(before), pricingHistoryView(after), by);
    return after;
  });
}

/** What differs from the defaults: the overrides to store for these full values. */
export function pricingOverridesOf(values: PricingSettings): PricingOverrides {
  const overrides: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const fallback = DEFAULT_PRICING[key as keyof PricingSettings];
    if (key === 'infillByStrength') {
      const infill = Object.fromEntries(
        Object.entries(values.infillByStrength).filter(
          ([level, v]) => v !== DEFAULT_PRICING.infillByStrength[level as '1'],
        ),
      );
      if (Object.keys(infill).length > 0) overrides.infillByStrength = infill;
    } else if (!isDeepStrictEqual(value, fallback)) {
      overrides[key] = value;
    }
  }
  return overrides as PricingOverrides;
}

/** Saves the full pricing (validated as pricingValuesSchema): the keys that differ from the defaults are stored. */
export async function savePricingValues(db: Db, values: unknown, by: ChangedBy): Promise<PricingSettings> {
  return savePricingOverrides(db, pricingOverridesOf(pricingValuesSchema.parse(values)), by);
}
