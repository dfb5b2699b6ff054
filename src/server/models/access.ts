import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { isModelId } from './ids.ts';
import { findModel, isInOrderOf } from './models-repository.ts';
import type { Owner, Viewer } from './owner.ts';

// Who may see a model: its owner (the account, or the browser while no account owns it), the owner of an
// order holding it, and staff. Everyone else gets the same 404 as for an id that does not exist
// (docs/security.md 20), so ids cannot be probed.

export const MODEL_NOT_FOUND = 'Model not found.';

export function isOwner(model: Pick<Model, 'ownerUserId' | 'ownerVisitorHash'>, viewer: Viewer): boolean {
  if (viewer.userId !== null && model.ownerUserId === viewer.userId) return true;
  return (
    viewer.visitorHash !== null && model.ownerUserId === null && model.ownerVisitorHash === viewer.visitorHash
  );
}

/** The owner a model made by this viewer gets: the account when logged in, else the browser. */
export function ownerOf(viewer: Viewer): Owner | null {
  if (viewer.userId !== null) return { userId: viewer.userId, visitorHash: null };
  if (viewer.visitorHash !== null) return { userId: null, visitorHash: viewer.visitorHash };
  return null;
}

export async function canReadModel(db: Db, model: Model, viewer: Viewer): Promise<boolean> {
  if (isOwner(model, viewer) || viewer.isAdmin) return true;
  return viewer.userId !== null && isInOrderOf(db, model.id, viewer.userId);
}

/** The model if this viewer may read it (owner, order owner, admin); else a 404. */
export async function findReadableModel(db: Db, id: string, viewer: Viewer): Promise<Model> {
  const model = isModelId(id) ? await findModel(db, id) : undefined;
  if (!model || !(await canReadModel(db, model, viewer))) throw new HttpError(404, MODEL_NOT_FOUND);
  return model;
}

/** The model if this viewer owns it; else a 404 (changes are for the owner only). */
export async function findOwnedModel(db: Db, id: string, viewer: Viewer): Promise<Model> {
  const model = isModelId(id) ? await findModel(db, id) : undefined;
  if (!model || !isOwner(model, viewer)) throw new HttpError(404, MODEL_NOT_FOUND);
  return model;
}
