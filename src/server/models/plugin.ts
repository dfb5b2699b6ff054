import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { loadShopSettings, uploadRetentionReader } from '../settings/shop-settings.ts';
import type { FileStore } from '../storage/file-store.ts';
import { openFileStore } from '../storage/open-file-store.ts';
import { type AnalysisPoolOptions, createAnalysisPool } from './analysis-pool.ts';
import { startCleanupJob } from './cleanup.ts';
import { DiskSpaceGuard, type FreeBytes } from './disk-space.ts';
import { extrasSettled } from './extras-service.ts';
import { modelRoutes } from './model-routes.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import { DEFAULT_IP_QUOTA, DEFAULT_QUOTA, type IpQuotaLimits, type QuotaLimits } from './quota.ts';
import { UPLOAD_LIMITS } from './receive-upload.ts';
import { createUploadIpHasher } from './upload-ip.ts';
import { uploadRoute } from './upload-route.ts';
import { DEFAULT_SMALL_MODEL_MM } from './warnings.ts';

// Uploads and models: multipart parsing (in this plugin's scope only), the analysis worker pool, the file
// store, the routes, and the cleanup job. Everything it starts stops when the app closes.

export type ModelsPluginOptions = {
  ctx: AppContext;
  store?: FileStore;
  analysis?: AnalysisPoolOptions;
  quota?: Partial<QuotaLimits>;
  ipQuota?: Partial<IpQuotaLimits>;
  /** Free bytes on a directory's disk (default: fs.statfs). */
  freeBytes?: FreeBytes;
  /** The 'designed in inches?' threshold, mm (default 10). */
  smallModelMm?: number;
  /** How often expired uploads are removed (default every 15 minutes). */
  cleanupIntervalMs?: number;
};

export const DEFAULT_CLEANUP_INTERVAL_MS = 15 * 60_000;

export async function modelsPlugin(app: FastifyInstance, opts: ModelsPluginOptions) {
  const { ctx } = opts;
  const tmpDir = path.join(ctx.config.dataDir, 'tmp');
  const files = opts.store
    ? { store: opts.store, localDir: ctx.config.filesDir, close: () => {} }
    : await openFileStore(ctx.config);
  app.addHook('onClose', () => files.close());
  const deps: ModelsDeps = {
    ctx,
    store: files.store,
    pool: createAnalysisPool(opts.analysis),
    quota: { ...DEFAULT_QUOTA, ...opts.quota },
    ipQuota: { ...DEFAULT_IP_QUOTA, ...opts.ipQuota },
    uploadIpHash: createUploadIpHasher(ctx.db),
    // Temp files and stored files: usually one disk, checked as two in case they are not (a bucket has
    // no disk to check).
    disk: new DiskSpaceGuard({
      dirs: files.localDir ? [tmpDir, files.localDir] : [tmpDir],
      minFreeBytes: ctx.config.uploadMinFreeBytes,
      ...(opts.freeBytes ? { freeBytes: opts.freeBytes } : {}),
      now: ctx.now,
    }),
    // The build volume is a shop setting: read for each answer, so a change applies at once.
    warnings: async () => ({
      buildVolumeMm: (await loadShopSettings(ctx.db, ctx.config)).buildVolumeMm,
      smallModelMm: opts.smallModelMm ?? DEFAULT_SMALL_MODEL_MM,
    }),
    tmpDir,
  };
  await app.register(multipart, { limits: UPLOAD_LIMITS });

  const cleanup = startCleanupJob(
    {
      db: ctx.db,
      store: deps.store,
      now: ctx.now,
      // A shop setting: read at each run.
      retentionMs: uploadRetentionReader(ctx.db, ctx.config),
      tmpDir: deps.tmpDir,
    },
    opts.cleanupIntervalMs ?? DEFAULT_CLEANUP_INTERVAL_MS,
    app.log,
  );
  app.addHook('onClose', async () => {
    cleanup.stop();
    await extrasSettled();
    await deps.pool.close();
  });

  await app.register(uploadRoute, deps);
  await app.register(modelRoutes, deps);
}
