import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, lt, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { models, orderItems } from '../db/schema.ts';
import type { FileStore } from '../storage/file-store.ts';
import { isKeyInUse } from './models-repository.ts';
import { QUOTA_WINDOW_MS } from './quota.ts';

// Uploads are kept for the retention (the shop setting over config.uploadRetentionMs) unless ordered: a job removes older models that no order
// holds, their stored files once no other row shares them, and temp files left by interrupted uploads.
// It also forgets the hashed client address of uploads older than the per-IP quota's day, and removes stored
// files that no row names and that are older than an upload takes: a process killed between storing a
// file and writing its row (SIGKILL, the OOM killer) leaves one behind, never served or counted.
//
// Racing an upload of the same bytes (upload-service.ts) is safe:
// - The DELETE itself re-checks age and orders on each row (PostgreSQL re-evaluates a row's own conditions
//   on its newest version after waiting for its lock), so a row an upload has just touched survives.
// - A file is deleted only after its rows are gone and no row uses it. Uploads only add a user of an
//   existing file while holding a lock on a live row that uses it (models-repository.ts
//   insertSharingFile, touchModel), so once no row uses a file, none ever will: deleting it is safe.

export type CleanupDeps = {
  db: Db;
  store: FileStore;
  now: () => Date;
  /** How long an unordered upload is kept: a number, or read at each run (the shop setting). */
  retentionMs: number | (() => Promise<number>);
  tmpDir: string;
  /** A temp file this old belongs to no upload in progress (an upload takes well under this). */
  tempMaxAgeMs?: number;
  /** Tests pause here to interleave an upload: after choosing rows, before deleting them... */
  beforeDelete?: (ids: string[]) => Promise<void>;
  /** ...and after a file was found unused, before deleting it. */
  beforeFileDelete?: (key: string) => Promise<void>;
};

export type CleanupResult = {
  models: number;
  files: number;
  tempFiles: number;
  orphanFiles: number;
  /** Files no row names, kept because there were too many of them to be a crash's leftovers. */
  orphanFilesHeld?: number;
};

const BATCH = 500;
const DEFAULT_TEMP_MAX_AGE_MS = 3600_000;

function expired(db: Db, cutoff: Date): SQL {
  return and(
    lt(models.createdAt, cutoff),
    notExists(db.select({ one: sql`1` }).from(orderItems).where(eq(orderItems.modelId, models.id))),
  )!;
}

async function findExpired(db: Db, cutoff: Date): Promise<string[]> {
  const rows = await db.select({ id: models.id }).from(models).where(expired(db, cutoff)).limit(BATCH);
  return rows.map((r) => r.id);
}

/** Deletes those of `ids` still expired now (conditions on the deleted row itself, see above). */
async function deleteIfExpired(
  db: Db,
  ids: string[],
  cutoff: Date,
): Promise<{ count: number; keys: Set<string> }> {
  const deleted = await db
    .delete(models)
    .where(and(inArray(models.id, ids), expired(db, cutoff)))
    .returning({ storageKey: models.storageKey, previewKey: models.previewKey, viewKey: models.viewKey });
  const keys = new Set(
    deleted.flatMap((d) => [d.storageKey, d.previewKey, d.viewKey].filter((k): k is string => k !== null)),
  );
  return { count: deleted.length, keys };
}

/** The per-IP quota counts one day: older rows need not say where they came from. */
async function forgetUploadIps(db: Db, before: Date): Promise<void> {
  await db
    .update(models)
    .set({ uploadIpHash: null })
    .where(and(isNotNull(models.uploadIpHash), lt(models.createdAt, before)));
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
  const retentionMs = typeof deps.retentionMs === 'number' ? deps.retentionMs : await deps.retentionMs();
  const cutoff = new Date(now - retentionMs);
  const result: CleanupResult = { models: 0, files: 0, tempFiles: 0, orphanFiles: 0 };
  for (;;) {
    const ids = await findExpired(deps.db, cutoff);
    if (ids.length === 0) break;
    await deps.beforeDelete?.(ids);
    const { count, keys } = await deleteIfExpired(deps.db, ids, cutoff);
    // None deleted: every candidate was touched or ordered meanwhile; the next run looks again.
    if (count === 0) break;
    result.models += count;
    for (const key of keys) {
      if (await isKeyInUse(deps.db, key)) continue;
      await deps.beforeFileDelete?.(key);
      await deps.store.delete(key);
      result.files++;
    }
  }
  await forgetUploadIps(deps.db, new Date(now - QUOTA_WINDOW_MS));
  const stale = now - (deps.tempMaxAgeMs ?? DEFAULT_TEMP_MAX_AGE_MS);
  result.tempFiles = await removeStaleTempFiles(deps.tmpDir, stale);
  const orphans = await removeOrphanFiles(deps, stale);
  result.orphanFiles = orphans.removed;
  if (orphans.held > 0) result.orphanFilesHeld = orphans.held;
  return result;
}

/** Orphans beyond this share of what is stored mean a wrong database or store, not a crash: none go. */
const ORPHAN_SHARE_LIMIT = 0.05;
const ORPHAN_FLOOR = 20;

/**
 * Stored files older than `before` that no row names. The age is what makes this safe against an upload
 * in progress (it stores its file moments before its row); a key that is unused once stays unused (see
 * above), and each is checked again just before it goes. A crash leaves a handful: when many stored files
 * are named by no row (a shop started on an empty database by mistake, another shop's files in a shared
 * store), nothing is removed and the job says so, since those files may be the only copy.
 */
async function removeOrphanFiles(deps: CleanupDeps, before: number): Promise<OrphanSweep> {
  if (!deps.store.list) return { removed: 0, held: 0 };
  const [anyModel] = await deps.db.select({ id: models.id }).from(models).limit(1);
  if (!anyModel) return { removed: 0, held: 0 };
  let listed = 0;
  const orphans: string[] = [];
  let batch: string[] = [];
  const sweep = async () => {
    const used = await deps.db
      .select({ a: models.storageKey, b: models.previewKey, c: models.viewKey })
      .from(models)
      .where(
        or(
          inArray(models.storageKey, batch),
          inArray(models.previewKey, batch),
          inArray(models.viewKey, batch),
        ),
      );
    const named = new Set(used.flatMap((r) => [r.a, r.b, r.c]));
    orphans.push(...batch.filter((key) => !named.has(key)));
    batch = [];
  };
  for await (const { key, modified } of deps.store.list()) {
    listed++;
    if (modified.getTime() >= before) continue;
    batch.push(key);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  if (orphans.length > Math.max(ORPHAN_FLOOR, listed * ORPHAN_SHARE_LIMIT)) {
    return { removed: 0, held: orphans.length };
  }
  let removed = 0;
  for (const key of orphans) {
    if (await isKeyInUse(deps.db, key)) continue;
    await deps.store.delete(key);
    removed++;
  }
  return { removed, held: 0 };
}

type OrphanSweep = { removed: number; held: number };

export type CleanupJob = { stop(): void };

/** Runs the cleanup every `intervalMs` (first soon after start), never two runs at once; unref'd timers. */
export function startCleanupJob(deps: CleanupDeps, intervalMs: number, log: FastifyBaseLogger): CleanupJob {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const r = await cleanupExpiredModels(deps);
      if (r.models + r.files + r.tempFiles + r.orphanFiles > 0) log.info(r, 'removed expired uploads');
      if (r.orphanFilesHeld) {
        log.warn(
          { files: r.orphanFilesHeld },
          'many stored files are named by no model: is this the right database and file store? None were removed',
        );
      }
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
