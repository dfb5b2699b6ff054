import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { models, orderItems } from '../db/schema.ts';
import type { FileStore } from '../storage/file-store.ts';
import { isKeyInUse } from './models-repository.ts';

// Uploads are kept for config.uploadRetentionMs unless ordered: a job removes older models that no order
// holds, their stored files once no other row shares them, and temp files left by interrupted uploads.

export type CleanupDeps = {
  db: Db;
  store: FileStore;
  now: () => Date;
  retentionMs: number;
  tmpDir: string;
  /** A temp file this old belongs to no upload in progress (an upload takes well under this). */
  tempMaxAgeMs?: number;
};

export type CleanupResult = { models: number; files: number; tempFiles: number };

const BATCH = 500;
const DEFAULT_TEMP_MAX_AGE_MS = 3600_000;

async function deleteExpiredBatch(db: Db, cutoff: Date): Promise<{ count: number; keys: Set<string> }> {
  const expired = db
    .select({ id: models.id })
    .from(models)
    .where(
      and(
        lt(models.createdAt, cutoff),
        notExists(db.select({ one: sql`1` }).from(orderItems).where(eq(orderItems.modelId, models.id))),
      ),
    )
    .limit(BATCH);
  const deleted = await db
    .delete(models)
    .where(inArray(models.id, expired))
    .returning({ storageKey: models.storageKey, previewKey: models.previewKey });
  const keys = new Set(
    deleted.flatMap((d) => (d.previewKey ? [d.storageKey, d.previewKey] : [d.storageKey])),
  );
  return { count: deleted.length, keys };
}

async function removeStaleTempFiles(tmpDir: string, before: number): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(tmpDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(tmpDir, name);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < before) {
      await fsp.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

export async function cleanupExpiredModels(deps: CleanupDeps): Promise<CleanupResult> {
  const now = deps.now().getTime();
  const cutoff = new Date(now - deps.retentionMs);
  const result: CleanupResult = { models: 0, files: 0, tempFiles: 0 };
  for (;;) {
    const { count, keys } = await deleteExpiredBatch(deps.db, cutoff);
    if (count === 0) break;
    result.models += count;
    for (const key of keys) {
      if (await isKeyInUse(deps.db, key)) continue;
      await deps.store.delete(key);
      result.files++;
    }
  }
  result.tempFiles = await removeStaleTempFiles(
    deps.tmpDir,
    now - (deps.tempMaxAgeMs ?? DEFAULT_TEMP_MAX_AGE_MS),
  );
  return result;
}

export type CleanupJob = { stop(): void };

/** Runs the cleanup every `intervalMs` (first soon after start), never two runs at once; unref'd timers. */
export function startCleanupJob(deps: CleanupDeps, intervalMs: number, log: FastifyBaseLogger): CleanupJob {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const r = await cleanupExpiredModels(deps);
      if (r.models + r.files + r.tempFiles > 0) log.info(r, 'removed expired uploads');
    } catch (err) {
      log.error({ err }, 'upload cleanup failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(run, Math.min(intervalMs, 30_000));
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
