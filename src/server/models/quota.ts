import type { Db } from '../db/client.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { uploadStats } from './models-repository.ts';
import type { Owner } from './owner.ts';

// Per owner (account or browser) limits on top of the per-IP rate limit (SECURITY.md 31): how many models
// a day, and how many bytes of distinct files held.

export type QuotaLimits = { modelsPerDay: number; storageBytes: number };

export const DEFAULT_QUOTA: QuotaLimits = { modelsPerDay: 200, storageBytes: 2 * 1024 ** 3 };

const DAY_MS = 24 * 3600_000;

function gigabytes(bytes: number): string {
  const gb = bytes / 1024 ** 3;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

/** Throws 429 past the daily count, 413 past the storage (with `incomingBytes` about to be added). */
export async function checkQuota(
  db: Db,
  owner: Owner,
  now: Date,
  limits: QuotaLimits,
  incomingBytes = 0,
): Promise<void> {
  const stats = await uploadStats(db, owner, new Date(now.getTime() - DAY_MS));
  if (stats.recentCount >= limits.modelsPerDay) {
    const freeAt = (stats.oldestRecent?.getTime() ?? now.getTime()) + DAY_MS;
    const retryAfter = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
    throw new HttpError(
      429,
      `You have added ${limits.modelsPerDay} models in the last 24 hours, the most we accept. Please try again later.`,
      { 'retry-after': String(retryAfter) },
    );
  }
  if (stats.storedBytes + incomingBytes > limits.storageBytes) {
    throw new HttpError(
      413,
      `Your models take up more than ${gigabytes(limits.storageBytes)}, the most we keep for one customer. Models that are not ordered are removed after a few days.`,
    );
  }
}
