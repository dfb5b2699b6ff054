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

// The view mesh of a model uploaded before view meshes existed, made on its first view: the stored file is
// copied to a temp file, a worker thread writes the GLB, and every row sharing the file gets it. Two first
// views at once may both make one; the first to write it wins and the other's is removed.

export const VIEW_UNAVAILABLE = 'This model cannot be shown in 3D.';

export async function ensureViewMesh(
  deps: ModelsDeps,
  model: Model,
  client: string,
  log: FastifyBaseLogger,
): Promise<Model> {
  if (model.viewKey) return model;
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
