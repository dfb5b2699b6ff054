import type { FastifyBaseLogger } from 'fastify';
import { STORED_PREVIEW_COLOR } from '../../shared/preview-color.ts';
import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { type FileStore, newStorageKey } from '../storage/file-store.ts';
import {
  AnalysisLimitError,
  type AnalysisPool,
  type UploadAnalysis,
  type UploadLater,
} from './analysis-pool.ts';
import type { AnalyzeResult } from './analyze-worker.ts';
import { followUpload } from './extras-service.ts';
import { newModelId } from './ids.ts';
import {
  findOwnedUpload,
  findSameContent,
  insertModel,
  insertSharingFile,
  touchModel,
} from './models-repository.ts';
import type { Owner } from './owner.ts';
import type { ReceivedUpload } from './receive-upload.ts';

// From a received temp file to a model row: reuse what the same bytes already gave this owner (content-hash
// dedupe, never across owners: see findSameContent), else analyse in the worker pool, store the file and preview under random keys, and insert the row.
// The view meshes (and a big model's preview) are made after the answer, in the analysis' own task, and
// stored as they come (followUpload): the price never waits for them.
// Any failure leaves nothing behind: no row, no stored file (the caller removes the temp file).
// Reuse is safe against the cleanup job deleting the same rows and files at the same moment: a row is
// reused only through a statement that locks it (touchModel, insertSharingFile), and the cleanup re-checks
// each row when deleting it and deletes a file only once no row uses it (cleanup.ts).

export type UploadDeps = {
  db: Db;
  store: FileStore;
  pool: AnalysisPool;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Told where an analysed upload's time went, stage by stage (milliseconds). */
  timing?: (stage: UploadStage, ms: number) => void;
  /**
   * Settles once the upload's answer has gone out (the route's response closed): a big model's extras are
   * made after it, so that they do not take the CPU the answer needs. Without it, after the row is in.
   */
  answered?: Promise<void>;
  /** Tests pause here, between finding a row to reuse and reusing it, to interleave a cleanup run. */
  beforeReuse?: (row: Model) => Promise<void>;
};

/** 'streamed': the analysis' work done while the upload was still arriving (upload-stream.ts). */
export type UploadStage = 'streamed' | 'queue' | 'analysis' | 'preview' | 'view' | 'store' | 'db';

/** Who sent the upload, for the per-IP quota (upload-ip.ts); null when unknown. */
export type UploadSource = {
  ipHash: string | null;
  /** The client's rate-limit bucket: the analysis threads are shared out by it (fair-queue.ts). */
  client?: string;
};

export const LIMIT_MESSAGES = {
  timeout: 'The model took too long to analyse.',
  memory: 'The model is too complex to analyse.',
  busy: 'We are analysing many models right now. Please try again in a minute.',
} as const;

/**
 * The analysis that followed the upload as it streamed in, if there was one and it came to an answer; else
 * the file's, from the pool as usual (a slow client's, one given up, or one whose thread failed).
 */
async function followedOrAnalysed(
  deps: UploadDeps,
  upload: ReceivedUpload,
  client: string,
): Promise<UploadAnalysis> {
  const outcome = await upload.followed?.take();
  if (outcome?.kind === 'done') return outcome.analysis;
  if (outcome?.reason === 'failed') {
    deps.log.warn(
      { err: outcome.error },
      'the analysis following an upload failed: reading the file instead',
    );
  }
  return deps.pool.upload(
    { path: upload.tempPath, extension: upload.extension, color: STORED_PREVIEW_COLOR },
    client,
  );
}

async function analyse(
  deps: UploadDeps,
  upload: ReceivedUpload,
  client: string,
): Promise<Extract<AnalyzeResult, { ok: true }> & { later: UploadLater | null }> {
  let result: AnalyzeResult;
  let later: UploadLater | null;
  const asked = performance.now();
  try {
    ({ answer: result, later } = await followedOrAnalysed(deps, upload, client));
  } catch (err) {
    if (err instanceof AnalysisLimitError) {
      if (err.reason === 'busy') throw new HttpError(503, LIMIT_MESSAGES.busy, { 'retry-after': '30' });
      throw new HttpError(422, LIMIT_MESSAGES[err.reason]);
    }
    deps.log.error({ err }, 'model analysis failed');
    throw new HttpError(422, 'This model could not be read.');
  }
  if (!result.ok) throw new HttpError(422, result.message);
  const { analysis, preview, view, streamed } = result.timings;
  if (streamed !== undefined) deps.timing?.('streamed', streamed);
  deps.timing?.('queue', Math.max(0, performance.now() - asked - analysis - preview - view));
  deps.timing?.('analysis', analysis);
  deps.timing?.('preview', preview);
  deps.timing?.('view', view);
  if (result.previewError) deps.log.warn({ error: result.previewError }, 'model preview failed');
  if (result.viewError) deps.log.warn({ error: result.viewError }, 'model view mesh failed');
  return { ...result, later };
}

/** A new row from the analysis of this upload, its file and preview stored under new keys. */
async function createAnalysed(
  deps: UploadDeps,
  upload: ReceivedUpload,
  owner: Owner,
  source: UploadSource,
): Promise<Model> {
  const { analysis, png, view, later } = await analyse(deps, upload, source.client ?? '');
  const storageKey = newStorageKey('f');
  const previewKey = png ? newStorageKey('p') : null;
  const viewKey = view ? newStorageKey('v') : null;
  // Registered before the answer, so that a request for the view or preview waits for these.
  let inserted = (_row: boolean) => {};
  if (later && !view) {
    const row = new Promise<boolean>((resolve) => (inserted = resolve));
    followUpload(deps, storageKey, later, row, png !== null);
    // The task goes on once the answer is out (a failed upload's task stops at once).
    void row.then(async (ok) => {
      if (ok) await deps.answered;
      later.proceed(ok ? 'go' : 'stop');
    });
  }
  try {
    const storing = performance.now();
    await deps.store.put(storageKey, { file: upload.tempPath });
    if (previewKey && png) await deps.store.put(previewKey, { bytes: png });
    if (viewKey && view) await deps.store.put(viewKey, { bytes: view.glb });
    const inserting = performance.now();
    deps.timing?.('store', inserting - storing);
    const row = await insertModel(deps.db, {
      id: newModelId(),
      ownerUserId: owner.userId,
      ownerVisitorHash: owner.visitorHash,
      contentHash: upload.contentHash,
      fileName: upload.fileName,
      format: analysis.format,
      sizeBytes: upload.sizeBytes,
      storageKey,
      previewKey,
      viewKey,
      viewTriangles: view?.triangles ?? null,
      scale: 1,
      triangles: analysis.triangles,
      volumeMm3: analysis.volumeCm3 * 1000,
      areaMm2: analysis.areaCm2 * 100,
      dimX: analysis.dimensions.x,
      dimY: analysis.dimensions.y,
      dimZ: analysis.dimensions.z,
      watertight: analysis.watertight,
      // Parts found inside out and turned outward: the inside_out warning, and staff look at the order.
      correctedShells: analysis.correctedShells,
      // The parser's notes on oddities it tolerated; the shop's own warnings are computed when shown.
      warnings: analysis.warnings,
      uploadIpHash: source.ipHash,
      createdAt: deps.now(),
    });
    deps.timing?.('db', performance.now() - inserting);
    inserted(true);
    return row;
  } catch (err) {
    inserted(false);
    await deps.store.delete(storageKey).catch(() => {});
    if (previewKey) await deps.store.delete(previewKey).catch(() => {});
    if (viewKey) await deps.store.delete(viewKey).catch(() => {});
    throw err;
  }
}

/** A new row for this owner sharing the stored file, preview and analysis of its own `same`; undefined if it is gone. */
async function createFromSame(
  deps: UploadDeps,
  upload: ReceivedUpload,
  owner: Owner,
  source: UploadSource,
  same: Model,
): Promise<Model | undefined> {
  const s = same.scale;
  const model = await insertSharingFile(deps.db, same.id, {
    id: newModelId(),
    ownerUserId: owner.userId,
    ownerVisitorHash: owner.visitorHash,
    contentHash: upload.contentHash,
    fileName: upload.fileName,
    format: same.format,
    sizeBytes: upload.sizeBytes,
    storageKey: same.storageKey,
    previewKey: same.previewKey,
    viewKey: same.viewKey,
    viewTriangles: same.viewTriangles,
    scale: 1,
    triangles: same.triangles,
    volumeMm3: same.volumeMm3 / s ** 3,
    areaMm2: same.areaMm2 / s ** 2,
    dimX: same.dimX / s,
    dimY: same.dimY / s,
    dimZ: same.dimZ / s,
    watertight: same.watertight,
    correctedShells: same.correctedShells,
    warnings: same.warnings,
    uploadIpHash: source.ipHash,
    createdAt: deps.now(),
  });
  if (!model) return undefined;
  // The cleanup cannot remove the file now that the new row uses it; a file lost some other way (a
  // restored backup, a hand-cleaned directory) is put back from these same bytes.
  if (!(await deps.store.exists(model.storageKey)))
    await deps.store.put(model.storageKey, { file: upload.tempPath });
  return model;
}

export async function createModelFromUpload(
  deps: UploadDeps,
  upload: ReceivedUpload,
  owner: Owner,
  source: UploadSource = { ipHash: null },
): Promise<Model> {
  const own = await findOwnedUpload(deps.db, owner, upload);
  if (own) {
    await deps.beforeReuse?.(own);
    // The same file again: the same model, kept from now on as if new. Its file was there just before
    // the touch, and a row that was never deleted keeps its file (see cleanup.ts).
    const again =
      (await deps.store.exists(own.storageKey)) &&
      (await touchModel(deps.db, own.id, deps.now(), source.ipHash));
    if (again) return again;
  }
  const same = await findSameContent(deps.db, owner, upload);
  if (same) {
    await deps.beforeReuse?.(same);
    const shared = await createFromSame(deps, upload, owner, source, same);
    if (shared) return shared;
  }
  // Nothing to reuse, or it was removed meanwhile: analyse, and store the file under a new key.
  return createAnalysed(deps, upload, owner, source);
}
