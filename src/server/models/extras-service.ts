import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_COLOR } from '../../shared/catalog.ts';
import type { Model } from '../db/schema.ts';
import { models } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { newStorageKey } from '../storage/file-store.ts';
import { MODEL_NOT_FOUND } from './access.ts';
import { AnalysisLimitError } from './analysis-pool.ts';
import { findModel } from './models-repository.ts';
import type { ModelsDeps } from './plugin-deps.ts';

// A model's extras, its preview and its view mesh, when it has none yet: a big model's, made just after its
// upload answered (the upload waits only for the price), or one missing for any other reason (uploaded
// before view meshes existed, a job cut short by a restart, made by another instance), made when first
// asked for. The stored file is copied to a temp file, a worker thread makes what is missing, and every row
// sharing the file gets it. A request for an extra that is being made waits for that job; two instances
// making one at once both may, and the first to write it wins (the other's is removed).

export const VIEW_UNAVAILABLE = 'This model cannot be shown in 3D.';

type Extra = 'preview' | 'view';

/** The jobs running in this process, by stored file. */
const building = new Map<string, Promise<unknown>>();

function missing(model: Model): Extra[] {
  const extras: Extra[] = [];
  if (!model.previewKey) extras.push('preview');
  if (!model.viewKey) extras.push('view');
  return extras;
}

/** Makes what a just-uploaded model lacks in the background; errors are logged (a request retries). */
export function scheduleExtras(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger): void {
  const extras = missing(model);
  if (extras.length === 0 || building.has(model.storageKey)) return;
  run(deps, model, extras, client, log).catch((err) => {
    log.warn({ err, modelId: model.id }, 'background preview or view mesh failed');
  });
}

/** Resolves when no extra is being made (the app's shutdown, tests, benches). */
export async function extrasSettled(): Promise<void> {
  while (building.size > 0) await Promise.allSettled([...building.values()]);
}

/** The model with its preview, made now if it has none; 404 when none can be made. */
export function ensurePreview(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger) {
  return ensure(deps, model, 'preview', client, log);
}

/** The model with its view mesh, made now if it has none; 422 when none can be made. */
export function ensureViewMesh(deps: ModelsDeps, model: Model, client: string, log: FastifyBaseLogger) {
  return ensure(deps, model, 'view', client, log);
}

function has(model: Model, extra: Extra): boolean {
  return Boolean(extra === 'preview' ? model.previewKey : model.viewKey);
}

async function ensure(
  deps: ModelsDeps,
  model: Model,
  extra: Extra,
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  if (has(model, extra)) return model;
  const pending = building.get(model.storageKey);
  if (pending) {
    await pending.catch(() => {});
    const fresh = await findModel(deps.ctx.db, model.id);
    if (!fresh) throw new HttpError(404, MODEL_NOT_FOUND);
    if (has(fresh, extra)) return fresh;
    model = fresh;
  }
  const fresh = await run(deps, model, missing(model), client, log);
  if (has(fresh, extra)) return fresh;
  if (extra === 'view') throw new HttpError(422, VIEW_UNAVAILABLE);
  throw new HttpError(404, MODEL_NOT_FOUND);
}

/** One job per stored file at a time in this process. */
async function run(
  deps: ModelsDeps,
  model: Model,
  extras: Extra[],
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  const made = make(deps, model, extras, client, log);
  building.set(model.storageKey, made);
  try {
    return await made;
  } finally {
    if (building.get(model.storageKey) === made) building.delete(model.storageKey);
  }
}

async function make(
  deps: ModelsDeps,
  model: Model,
  extras: Extra[],
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  const stored = await deps.store.get(model.storageKey);
  if (!stored) throw new HttpError(404, MODEL_NOT_FOUND);
  await fsp.mkdir(deps.tmpDir, { recursive: true });
  const temp = path.join(deps.tmpDir, `extras-${newStorageKey('t')}`);
  let result: Awaited<ReturnType<ModelsDeps['pool']['extras']>>;
  try {
    await pipeline(stored.stream, fs.createWriteStream(temp));
    const extension = model.format === 'obj' || model.format === '3mf' ? model.format : 'stl';
    result = await deps.pool.extras(
      {
        path: temp,
        extension,
        color: DEFAULT_COLOR,
        preview: extras.includes('preview'),
        view: extras.includes('view'),
      },
      client,
    );
  } catch (err) {
    if (err instanceof AnalysisLimitError && err.reason === 'busy') {
      throw new HttpError(503, 'We are busy right now. Please try again in a minute.', {
        'retry-after': '30',
      });
    }
    throw err;
  } finally {
    await fsp.rm(temp, { force: true });
  }
  if (result.previewError) log.warn({ modelId: model.id, error: result.previewError }, 'preview failed');
  if (result.viewError) log.warn({ modelId: model.id, error: result.viewError }, 'view mesh failed');
  if (result.png) await keep(deps, model.storageKey, 'preview', result.png);
  if (result.view) await keep(deps, model.storageKey, 'view', result.view.glb, result.view.triangles);
  const fresh = await findModel(deps.ctx.db, model.id);
  if (!fresh) throw new HttpError(404, MODEL_NOT_FOUND);
  return fresh;
}

/** Stores an extra and gives it to every row of the file that still lacks it; removed if none does. */
async function keep(
  deps: ModelsDeps,
  storageKey: string,
  extra: Extra,
  bytes: Uint8Array,
  viewTriangles = 0,
) {
  const key = newStorageKey(extra === 'preview' ? 'p' : 'v');
  await deps.store.put(key, { bytes });
  const [set, lacking] =
    extra === 'preview'
      ? [{ previewKey: key }, isNull(models.previewKey)]
      : [{ viewKey: key, viewTriangles }, isNull(models.viewKey)];
  const updated = await deps.ctx.db
    .update(models)
    .set(set)
    .where(and(eq(models.storageKey, storageKey), lacking))
    .returning({ id: models.id });
  // Another instance won, or the rows are gone: ours is nobody's.
  if (updated.length === 0) await deps.store.delete(key);
}
