import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Model } from '../db/schema.ts';
import { models } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { newStorageKey } from '../storage/file-store.ts';
import { MODEL_NOT_FOUND } from './access.ts';
import { AnalysisLimitError } from './analysis-pool.ts';
import { findModel } from './models-repository.ts';
import type { ModelsDeps } from './plugin-deps.ts';

// The view mesh of a model that has none yet: a big model's, made just after its upload answered (the
// upload waits only for the price and the preview), or one uploaded before view meshes existed, made on
// its first view. The stored file is copied to a temp file, a worker thread writes the GLB, and every row
// sharing the file gets it. A view asked for while the mesh is being made waits for that one; two
// instances making it at once both may, and the first to write it wins (the other's is removed).

export const VIEW_UNAVAILABLE = 'This model cannot be shown in 3D.';

/** The view meshes being made in this process, by stored file. */
const building = new Map<string, Promise<unknown>>();

/** Makes the view mesh of a just-uploaded model in the background; errors are logged (the viewer retries). */
export function scheduleViewMesh(
  deps: ModelsDeps,
  model: Model,
  client: string,
  log: FastifyBaseLogger,
): void {
  if (model.viewKey || building.has(model.storageKey)) return;
  ensureViewMesh(deps, model, client, log).catch((err) => {
    log.warn({ err, modelId: model.id }, 'background view mesh failed');
  });
}

/** Resolves when no view mesh is being made (the app's shutdown, tests). */
export async function viewMeshesSettled(): Promise<void> {
  while (building.size > 0) await Promise.allSettled([...building.values()]);
}

export async function ensureViewMesh(
  deps: ModelsDeps,
  model: Model,
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  if (model.viewKey) return model;
  const pending = building.get(model.storageKey);
  if (pending) {
    await pending.catch(() => {});
    const fresh = await findModel(deps.ctx.db, model.id);
    if (fresh?.viewKey) return fresh;
  }
  const made = makeViewMesh(deps, model, client, log);
  building.set(model.storageKey, made);
  try {
    return await made;
  } finally {
    if (building.get(model.storageKey) === made) building.delete(model.storageKey);
  }
}

async function makeViewMesh(
  deps: ModelsDeps,
  model: Model,
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  const stored = await deps.store.get(model.storageKey);
  if (!stored) throw new HttpError(404, MODEL_NOT_FOUND);
  await fsp.mkdir(deps.tmpDir, { recursive: true });
  const temp = path.join(deps.tmpDir, `view-${newStorageKey('t')}`);
  let result: Awaited<ReturnType<ModelsDeps['pool']['view']>>;
  try {
    await pipeline(stored.stream, fs.createWriteStream(temp));
    const extension = model.format === 'obj' || model.format === '3mf' ? model.format : 'stl';
    result = await deps.pool.view({ path: temp, extension }, client);
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
  if (!result.view) {
    log.warn({ modelId: model.id, error: result.viewError }, 'view mesh failed');
    throw new HttpError(422, VIEW_UNAVAILABLE);
  }
  const viewKey = newStorageKey('v');
  await deps.store.put(viewKey, { bytes: result.view.glb });
  const updated = await deps.ctx.db
    .update(models)
    .set({ viewKey, viewTriangles: result.view.triangles })
    .where(and(eq(models.storageKey, model.storageKey), isNull(models.viewKey)))
    .returning({ id: models.id });
  // Another first view won, or the rows are gone: ours is nobody's.
  if (updated.length === 0) await deps.store.delete(viewKey);
  const fresh = await findModel(deps.ctx.db, model.id);
  if (!fresh?.viewKey) throw new HttpError(404, MODEL_NOT_FOUND);
  return fresh;
}
