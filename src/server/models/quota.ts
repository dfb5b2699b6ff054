import { formatCount } from '../../shared/format.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { ipUploadStats, uploadStats } from './models-repository.ts';
import type { Owner } from './owner.ts';

// Limits on top of the per-IP rate limit (docs/security.md 31). Per owner (account or browser): how many models
// a day, and how many bytes of distinct files held. Per client address (IPv4, IPv6 /64), counted from the
// models table so that dropping the visitor cookie gains nothing: how many models a day, and how many
// bytes of new files a day. The per-IP limits are higher, so an office or school behind one NAT address
// is not held to one customer's share.

export type QuotaLimits = { modelsPerDay: number; storageBytes: number };
export type IpQuotaLimits = { modelsPerDay: number; bytesPerDay: number };

export const DEFAULT_QUOTA: QuotaLimits = { modelsPerDay: 200, storageBytes: 2 * 1024 ** 3 };
/** 5x one customer's models; bytes: 160 files of the 64 MiB maximum. */
export const DEFAULT_IP_QUOTA: IpQuotaLimits = { modelsPerDay: 1000, bytesPerDay: 10 * 1024 ** 3 };

/** The window of the daily counts. */
export const QUOTA_WINDOW_MS = 24 * 3600_000;

function gigabytes(bytes: number): string {
  const gb = bytes / 1024 ** 3;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

/** Seconds until the oldest counted upload leaves the window. */
function retryAfter(oldest: Date | null, now: Date): Record<string, string> {
  const freeAt = (oldest?.getTime() ?? now.getTime()) + QUOTA_WINDOW_MS;
  return { 'retry-after': String(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))) };
}

/** Throws 429 past the daily count, 413 past the storage (with `incomingBytes` about to be added). */
export async function checkQuota(
  db: Db,
  owner: Owner,
  now: Date,
  limits: QuotaLimits,
  incomingBytes = 0,
): Promise<void> {
  const stats = await uploadStats(db, owner, new Date(now.getTime() - QUOTA_WINDOW_MS));
  if (stats.recentCount >= limits.modelsPerDay) {
    throw new HttpError(
      429,
      `You have added ${formatCount(limits.modelsPerDay, 'model')} in the last 24 hours, the most we accept. Please try again later.`,
      retryAfter(stats.oldestRecent, now),
    );
  }
  if (stats.storedBytes + incomingBytes > limits.storageBytes) {
    throw new HttpError(
      413,
      `Your models take up more than ${gigabytes(limits.storageBytes)}, the most we keep for one customer. Models that are not ordered are removed after a few days.`,
    );
  }
}

/**
 * The same for everything uploaded from one client address (`ipHash`, see upload-ip.ts), whoever owns it:
 * 429 past the daily count, 413 past the daily bytes (with `incomingBytes`); both say when to retry.
 */
export async function checkIpQuota(
  db: Db,
  ipHash: string,
  now: Date,
  limits: IpQuotaLimits,
  incomingBytes = 0,
): Promise<void> {
  const stats = await ipUploadStats(db, ipHash, new Date(now.getTime() - QUOTA_WINDOW_MS));
  if (stats.recentCount >= limits.modelsPerDay) {
    throw new HttpError(
      429,
      `Your network has added ${formatCount(limits.modelsPerDay, 'model')} in the last 24 hours, the most we accept. Please try again later.`,
      retryAfter(stats.oldestRecent, now),
    );
  }
  if (stats.recentBytes + incomingBytes > limits.bytesPerDay) {
    throw new HttpError(
      413,
      `Your network has uploaded more than ${gigabytes(limits.bytesPerDay)} in the last 24 hours, the most we accept. Please try again later.`,
      retryAfter(stats.oldestRecent, now),
    );
  }
}
