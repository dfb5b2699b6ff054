import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordSettingChanges } from '../admin/settings/history.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';
import { type ChangedBy, lockSettingsRow, SETTINGS_ID } from '../pricing/settings-repository.ts';

// The shop's own settings (issue #25, section 'shop'): the printer's build volume and how long an upload no
// order holds is kept. The environment's BUILD_VOLUME_MM and UPLOAD_RETENTION_HOURS are the defaults; the
// settings row's `shop` overrides them key by key (each axis on its own). Read per request and per cleanup
// run (one small query), so a change applies at once on every instance.

const axis = (name: string) => {
  const message = `Build volume ${name} must be a number from 10 to 2000 mm.`;
  return z.number({ error: message }).min(10, message).max(2000, message);
};
const RETENTION_MESSAGE = 'Upload retention must be a number of hours from 1 to 8760 (a year).';

export const buildVolumeSettings = z.object({
  x: axis('X (width)'),
  y: axis('Y (depth)'),
  z: axis('Z (height)'),
});

export const shopSettings = z.object({
  /** The printer's build volume, mm: a model must fit it in some orientation of its axes. */
  buildVolumeMm: buildVolumeSettings,
  /** Hours an upload that no order holds is kept before the cleanup removes it. */
  uploadRetentionHours: z
    .number({ error: RETENTION_MESSAGE })
    .min(1, RETENTION_MESSAGE)
    .max(8760, RETENTION_MESSAGE),
});
export type ShopSettingsValues = z.infer<typeof shopSettings>;

/** The full shop settings as the admin saves them: every key, no unknown one. */
export const shopValuesSchema = shopSettings.extend({ buildVolumeMm: buildVolumeSettings.strict() }).strict();

/** What the settings row may hold: any subset of the keys, the axes' too. */
export const shopOverrides = shopSettings.extend({ buildVolumeMm: buildVolumeSettings.partial() }).partial();
export type ShopOverrides = z.infer<typeof shopOverrides>;

/** What the readers use: the build volume in mm and the retention in milliseconds. */
export type ShopSettings = { buildVolumeMm: { x: number; y: number; z: number }; uploadRetentionMs: number };

type ShopConfig = Pick<Config, 'buildVolumeMm' | 'uploadRetentionMs'>;

/** The defaults: the environment's (src/server/config.ts). */
export function shopDefaults(config: ShopConfig): ShopSettingsValues {
  return {
    buildVolumeMm: { ...config.buildVolumeMm },
    uploadRetentionHours: config.uploadRetentionMs / 3600_000,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The defaults with the stored overrides on top; a stored key (or axis) that is not valid is ignored alone. */
export function mergeShop(stored: unknown, config: ShopConfig): ShopSettingsValues {
  const merged = shopDefaults(config);
  if (!isRecord(stored)) return merged;
  const retention = shopSettings.shape.uploadRetentionHours.safeParse(stored.uploadRetentionHours);
  if (retention.success) merged.uploadRetentionHours = retention.data;
  if (isRecord(stored.buildVolumeMm)) {
    for (const key of ['x', 'y', 'z'] as const) {
      const parsed = buildVolumeSettings.shape[key].safeParse(stored.buildVolumeMm[key]);
      if (parsed.success) merged.buildVolumeMm[key] = parsed.data;
    }
  }
  return merged;
}

async function storedShop(db: Db): Promise<unknown> {
  const [row] = await db
    .select({ shop: settings.shop })
    .from(settings)
    .where(eq(settings.id, SETTINGS_ID))
    .limit(1);
  return row?.shop;
}

/** The shop settings in force, as the admin edits them (hours). */
export async function loadShopValues(db: Db, config: ShopConfig): Promise<ShopSettingsValues> {
  return mergeShop(await storedShop(db), config);
}

/** The shop settings in force, as the readers use them (the retention in milliseconds). */
export async function loadShopSettings(db: Db, config: ShopConfig): Promise<ShopSettings> {
  const values = await loadShopValues(db, config);
  return { buildVolumeMm: values.buildVolumeMm, uploadRetentionMs: values.uploadRetentionHours * 3600_000 };
}

/** The upload retention in force, read at each call: what the cleanup job runs with (models/plugin.ts). */
export function uploadRetentionReader(db: Db, config: ShopConfig): () => Promise<number> {
  return async () => (await loadShopSettings(db, config)).uploadRetentionMs;
}

/** What differs from the defaults: the overrides to store for these full values (axis by axis). */
export function shopOverridesOf(values: ShopSettingsValues, config: ShopConfig): ShopOverrides {
  const defaults = shopDefaults(config);
  const overrides: ShopOverrides = {};
  if (values.uploadRetentionHours !== defaults.uploadRetentionHours) {
    overrides.uploadRetentionHours = values.uploadRetentionHours;
  }
  const volume = Object.fromEntries(
    (['x', 'y', 'z'] as const)
      .filter((k) => !isDeepStrictEqual(values.buildVolumeMm[k], defaults.buildVolumeMm[k]))
      .map((k) => [k, values.buildVolumeMm[k]]),
  );
  if (Object.keys(volume).length > 0) overrides.buildVolumeMm = volume;
  return overrides;
}

/** The shop settings one level down, for the history: each axis of the build volume is its own key. */
export function shopHistoryView(values: ShopSettingsValues): Record<string, unknown> {
  const { buildVolumeMm, ...rest } = values;
  const view: Record<string, unknown> = { ...rest };
  for (const [key, value] of Object.entries(buildVolumeMm)) view[`buildVolumeMm.${key}`] = value;
  return view;
}

/**
 * Saves the full shop settings (validated as shopValuesSchema: a ZodError and nothing written otherwise):
 * what differs from the defaults is stored, and each changed key recorded in the settings history in the
 * same transaction. Answers the values now in force.
 */
export async function saveShopValues(
  db: Db,
  values: unknown,
  config: ShopConfig,
  by: ChangedBy,
): Promise<ShopSettingsValues> {
  const stored = shopOverridesOf(shopValuesSchema.parse(values), config);
  return db.transaction(async (tx) => {
    const row = await lockSettingsRow(tx);
    const before = mergeShop(row.shop, config);
    const after = mergeShop(stored, config);
    await tx
      .update(settings)
      .set({ shop: stored, updatedAt: by.now, updatedBy: by.userId })
      .where(eq(settings.id, SETTINGS_ID));
    await recordSettingChanges(tx, 'shop', shopHistoryView(before), shopHistoryView(after), by);
    return after;
  });
}
