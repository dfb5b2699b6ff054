import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/client.ts';
import { settingsHistory } from '../../db/schema.ts';

// The settings' history (promise 10: every admin change recorded with who, when, old and new value): one row
// per key that changed, written in the caller's transaction with the change itself.

export type SettingsSection = 'pricing' | 'shipping' | 'production' | 'shop';

/** Records each key whose value differs between `before` and `after` (values as stored: JSON). */
export async function recordSettingChanges(
  tx: Db,
  section: SettingsSection,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  by: { userId: number | null; now: Date },
): Promise<number> {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const rows = keys
    .filter((key) => !isDeepStrictEqual(before[key], after[key]))
    .map((key) => ({
      section,
      key,
      oldValue: before[key] ?? null,
      newValue: after[key] ?? null,
      changedBy: by.userId,
      changedAt: by.now,
    }));
  if (rows.length > 0) await tx.insert(settingsHistory).values(rows);
  return rows.length;
}
