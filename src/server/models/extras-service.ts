import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { STORED_PREVIEW_COLOR } from '../../shared/preview-color.ts';
import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { models } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { type FileStore, newStorageKey } from '../storage/file-store.ts';
import { streamToFile } from '../storage/stream-to-file.ts';
import { MODEL_NOT_FOUND } from './access.ts';
import { AnalysisLimitError, type UploadLater } from './analysis-pool.ts';
import { INLINE_EXTRAS_TRIANGLES } from './inline-extras.ts';
import { findModel } from './models-repository.ts';
import type { ModelsDeps } from './plugin-deps.ts';
import type { ViewMesh } from './view-mesh.ts';

// A model's extras, its preview and its view mesh, when it has none yet. An upload's are made by its own
// analysis task just after it answered (the upload waits only for the price), from the mesh the analysis
// holds, and stored as they arrive (followUpload); a big model's coarse view is kept in memory meanwhile, for
// the viewer to draw at once (coarseView). One missing for any other reason (uploaded before view meshes
// existed, a job cut short by a restart, made by another instance, a view mesh left for later by an upload's
// task because another model waited for its price) is made when first asked for, as its own job in a worker
// thread on a temp copy of the stored file. Every row sharing the file gets the result. A request for an
// extra that is being made waits for that job and starts no other; one that failed is not tried again for a
// while, so asking again costs nothing.

export const VIEW_UNAVAILABLE = 'This model cannot be shown in 3D.';
const BUSY = 'We are busy right now. Please try again in a minute.';

type Extra = 'preview' | 'view';

/** Jobs at once in this process: each holds a temp copy of a file of up to 64 MB. */
const MAX_JOBS = 4;
/** How long a failed extra is not tried again (the same file fails the same way). */
const RETRY_AFTER_FAILURE_MS = 10 * 60_000;
const MAX_FAILURES_KEPT = 10_000;

/** The jobs running in this process, by extra and stored file (an upload's own follow-ups too). */
const building = new Map<string, Promise<void>>();
/** Jobs holding a temp copy of a stored file, at most MAX_JOBS. */
let copying = 0;
/** A big upload's coarse view while its full view is being made, by stored file. */
const coarseViews = new Map<string, Promise<ViewMesh | null>>();
/** The background work of uploads (a preview, then a view mesh), for extrasSettled. */
const background = new Set<Promise<void>>();
/** Extras that could not be made, by extra and stored file: when they may be tried again. */
const failed = new Map<string, number>();

const jobKey = (extra: Extra, storageKey: string) => `${extra}:${storageKey}`;

function has(model: Model, extra: Extra): boolean {
  return Boolean(extra === 'preview' ? model.previewKey : model.viewKey);
}

function unavailable(extra: Extra): HttpError {
  return extra === 'view' ? new HttpError(422, VIEW_UNAVAILABLE) : new HttpError(404, MODEL_NOT_FOUND);
}

/** Makes a just-uploaded big model's preview, then its view mesh, in the uploader's share of the threads. */
export function scheduleExtras(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger): void {
  // A smaller model's were attempted in its upload's own task: a failure there would only repeat.
  if (model.triangles <= INLINE_EXTRAS_TRIANGLES) return;
  const work = (async () => {
    for (const extra of ['preview', 'view'] as const) {
      // A request may have made it meanwhile, or the model may be gone.
      const fresh = await findModel(deps.ctx.db, model.id);
      if (!fresh) return;
      if (has(fresh, extra) || building.has(jobKey(extra, model.storageKey))) continue;
      if (copying >= MAX_JOBS) return; // made when first asked for instead
      await run(deps, fresh, extra, client, log).catch((err) => {
        log.warn({ err, modelId: model.id, extra }, 'background preview or view mesh failed');
      });
    }
  })();
  background.add(work);
  void work.finally(() => background.delete(work));
}

/** Resolves when no extra is being made (the app's shutdown, tests, benches). */
export async function extrasSettled(): Promise<void> {
  while (building.size > 0 || background.size > 0) {
    await Promise.allSettled([...building.values(), ...background]);
  }
}

/**
 * Stores what an upload's task makes after its answer, once its row is in (`row` true; false: the upload
 * failed, and what comes is dropped): a big model's preview (previewInline false) and the view mesh. Until
 * then, requests for them wait (ensure), and the coarse view is at hand (coarseView).
 */
export function followUpload(
  deps: KeepDeps & { log: FastifyBaseLogger },
  storageKey: string,
  later: UploadLater,
  row: Promise<boolean>,
  previewInline: boolean,
): void {
  coarseViews.set(storageKey, later.coarse);
  const follow = (extra: Extra, work: () => Promise<void>) => {
    const key = jobKey(extra, storageKey);
    const job = work().catch((err: unknown) => {
      remember(key);
      deps.log.warn({ err, extra }, 'preview or view mesh of an upload failed');
    });
    building.set(key, job);
    void job.finally(() => {
      if (building.get(key) === job) building.delete(key);
      if (extra === 'view' && coarseViews.get(storageKey) === later.coarse) coarseViews.delete(storageKey);
    });
  };
  if (!previewInline) {
    follow('preview', async () => {
      const made = await later.preview;
      if (!(await row)) return;
      if (!made?.png) throw new Error(`preview failed: ${made?.previewError ?? 'not made'}`);
      await keep(deps, storageKey, 'preview', made.png);
    });
  }
  follow('view', async () => {
    const made = await later.view;
    if (!(await row)) return;
    // Left for later (another model waited for its price): made when the viewer asks, not a failure.
    if (made?.deferred) return;
    if (!made?.view) throw new Error(`view failed: ${made?.viewError ?? 'not made'}`);
    await keep(deps, storageKey, 'view', made.view.glb, made.view.triangles);
  });
}

/**
 * The coarse view of a model whose view mesh an upload's task is still making (waiting for it if it is on
 * its way); null when there is none (a small model, or the full view is stored).
 */
export async function coarseView(model: Model): Promise<ViewMesh | null> {
  if (model.viewKey) return null;
  const pending = coarseViews.get(model.storageKey);
  return pending ? await pending : null;
}

/** The model with its preview, made now if it has none; 404 when none can be made. */
export function ensurePreview(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger) {
  return ensure(deps, model, 'preview', client, log);
}

/** The model with its view mesh, made now if it has none; 422 when none can be made. */
export function ensureViewMesh(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger) {
  return ensure(deps, model, 'view', client, log);
}

async function ensure(
  deps: ModelsDeps,
  model: Model,
  extra: Extra,
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  if (has(model, extra)) return model;
  // Another row of the same file may have it (a copy uploaded or scaled after the job wrote its rows).
  const shared = await adoptShared(deps, model, extra);
  if (shared) return shared;
  const key = jobKey(extra, model.storageKey);
  // A job under way: its result. One that ended without the extra failed (remembered just below) or was an
  // upload's task that left it for later: the first request after it makes it, the others wait for that.
  for (let pending = building.get(key); pending; pending = building.get(key)) {
    await pending.catch(() => {});
    const fresh = await findModel(deps.ctx.db, model.id);
    if (!fresh) throw new HttpError(404, MODEL_NOT_FOUND);
    if (has(fresh, extra)) return fresh;
  }
  if ((failed.get(key) ?? 0) > Date.now()) throw unavailable(extra);
  if (copying >= MAX_JOBS) throw new HttpError(503, BUSY, { 'retry-after': '30' });
  try {
    await run(deps, model, extra, client, log);
  } catch (err) {
    if (err instanceof HttpError && (err.statusCode === 503 || err.statusCode === 507)) throw err;
    log.warn({ err, modelId: model.id, extra }, 'preview or view mesh could not be made');
  }
  const fresh = await findModel(deps.ctx.db, model.id);
  if (!fresh) throw new HttpError(404, MODEL_NOT_FOUND);
  if (has(fresh, extra)) return fresh;
  throw unavailable(extra);
}

/** Gives the model (and every row of its file) the extra another row of the file already has. */
async function adoptShared(deps: ModelsDeps, model: Model, extra: Extra): Promise<Model | undefined> {
  const column = extra === 'preview' ? models.previewKey : models.viewKey;
  const [other] = await deps.ctx.db
    .select()
    .from(models)
    .where(and(eq(models.storageKey, model.storageKey), isNotNull(column)))
    .limit(1);
  if (!other) return undefined;
  const set =
    extra === 'preview'
      ? { previewKey: other.previewKey }
      : { viewKey: other.viewKey, viewTriangles: other.viewTriangles };
  await deps.ctx.db
    .update(models)
    .set(set)
    .where(and(eq(models.storageKey, model.storageKey), isNull(column)));
  return findModel(deps.ctx.db, model.id);
}

/** One job per extra and stored file at a time in this process; a failure is remembered for a while. */
async function run(deps: ModelsDeps, model: Model, extra: Extra, client: string, log: FastifyBaseLogger) {
  const key = jobKey(extra, model.storageKey);
  const job = make(deps, model, extra, client, log).catch((err: unknown) => {
    // Busy or a full disk is the moment's, not the file's.
    const momentary = err instanceof HttpError && (err.statusCode === 503 || err.statusCode === 507);
    if (!momentary) remember(key);
    throw err;
  });
  building.set(key, job);
  try {
    await job;
  } finally {
    building.delete(key);
  }
}

function remember(key: string) {
  failed.delete(key);
  failed.set(key, Date.now() + RETRY_AFTER_FAILURE_MS);
  // The oldest first (a Map keeps insertion order).
  for (const old of failed.keys()) {
    if (failed.size <= MAX_FAILURES_KEPT) break;
    failed.delete(old);
  }
}

async function make(deps: ModelsDeps, model: Model, extra: Extra, client: string, log: FastifyBaseLogger) {
  copying++;
  try {
    await makeFromCopy(deps, model, extra, client, log);
  } finally {
    copying--;
  }
}

async function makeFromCopy(
  deps: ModelsDeps,
  model: Model,
  extra: Extra,
  client: string,
  log: FastifyBaseLogger,
) {
  const stored = await deps.store.get(model.storageKey);
  if (!stored) throw new HttpError(404, MODEL_NOT_FOUND);
  // The temp copy must not fill the disk the shop stores uploads on.
  await deps.disk.check(model.sizeBytes, log);
  await fsp.mkdir(deps.tmpDir, { recursive: true });
  const temp = path.join(deps.tmpDir, `extras-${newStorageKey('t')}`);
  let result: Awaited<ReturnType<ModelsDeps['pool']['extras']>>;
  try {
    await streamToFile(stored.stream, temp);
    const extension = model.format === 'obj' || model.format === '3mf' ? model.format : 'stl';
    result = await deps.pool.extras({ path: temp, extension, color: STORED_PREVIEW_COLOR, extra }, client);
  } catch (err) {
    if (err instanceof AnalysisLimitError && err.reason === 'busy') {
      throw new HttpError(503, BUSY, { 'retry-after': '30' });
    }
    throw err;
  } finally {
    await fsp.rm(temp, { force: true });
  }
  const error = extra === 'preview' ? result.previewError : result.viewError;
  if (error) throw new Error(`${extra} failed: ${error}`);
  const keeping = { db: deps.ctx.db, store: deps.store };
  if (extra === 'preview' && result.png) await keep(keeping, model.storageKey, 'preview', result.png);
  if (extra === 'view' && result.view) {
    await keep(keeping, model.storageKey, 'view', result.view.glb, result.view.triangles);
  }
}

/** What keeping an extra needs. */
type KeepDeps = { db: Db; store: FileStore };

/** Stores an extra and gives it to every row of the file that still lacks it; removed if none takes it. */
async function keep(deps: KeepDeps, storageKey: string, extra: Extra, bytes: Uint8Array, viewTriangles = 0) {
  const key = newStorageKey(extra === 'preview' ? 'p' : 'v');
  await deps.store.put(key, { bytes });
  const [set, lacking] =
    extra === 'preview'
      ? [{ previewKey: key }, isNull(models.previewKey)]
      : [{ viewKey: key, viewTriangles }, isNull(models.viewKey)];
  let taken = 0;
  try {
    const updated = await deps.db
      .update(models)
      .set(set)
      .where(and(eq(models.storageKey, storageKey), lacking))
      .returning({ id: models.id });
    taken = updated.length;
  } finally {
    // Another instance won, the rows are gone, or the update failed: ours is nobody's.
    if (taken === 0) await deps.store.delete(key).catch(() => {});
  }
}
