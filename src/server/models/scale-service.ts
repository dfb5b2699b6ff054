import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { MODEL_NOT_FOUND } from './access.ts';
import { newModelId } from './ids.ts';
import { findOwnedScaled, insertSharingFile, listInstead } from './models-repository.ts';
import type { Owner } from './owner.ts';

// 'Designed in inches?': a new model row sharing the stored file and preview, with every measurement
// scaled (lengths x s, area x s^2, volume x s^3). Asking for the same scale again answers the same row.
// The source is locked while the row is added, so the cleanup cannot remove the shared file meanwhile.

/** Keeps products like 25.4 x (1 / 25.4) at exactly 1. */
function tidyScale(scale: number): number {
  return Number(scale.toPrecision(12));
}

export async function scaleModel(
  db: Db,
  source: Model,
  factor: number,
  owner: Owner,
  now: Date,
): Promise<Model> {
  const scale = tidyScale(source.scale * factor);
  const existing = await findOwnedScaled(db, owner, {
    storageKey: source.storageKey,
    fileName: source.fileName,
    scale,
  });
  if (existing) {
    await listInstead(db, source.id, existing.id, now);
    return existing;
  }
  const s = scale / source.scale;
  const model = await insertSharingFile(db, source.id, {
    id: newModelId(),
    ownerUserId: owner.userId,
    ownerVisitorHash: owner.visitorHash,
    contentHash: source.contentHash,
    fileName: source.fileName,
    format: source.format,
    sizeBytes: source.sizeBytes,
    storageKey: source.storageKey,
    previewKey: source.previewKey,
    viewKey: source.viewKey,
    viewTriangles: source.viewTriangles,
    scale,
    triangles: source.triangles,
    volumeMm3: source.volumeMm3 * s ** 3,
    areaMm2: source.areaMm2 * s ** 2,
    dimX: source.dimX * s,
    dimY: source.dimY * s,
    dimZ: source.dimZ * s,
    watertight: source.watertight,
    correctedShells: source.correctedShells,
    warnings: source.warnings,
    createdAt: now,
  });
  // Removed by the cleanup since the route read it.
  if (!model) throw new HttpError(404, MODEL_NOT_FOUND);
  await listInstead(db, source.id, model.id, now);
  return model;
}
