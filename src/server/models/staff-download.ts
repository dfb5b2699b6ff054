import type { FastifyBaseLogger } from 'fastify';
import { recordAccountEvent } from '../admin/customers/account-changes.ts';
import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { isOwner } from './access.ts';
import type { Viewer } from './owner.ts';

// Staff may download any customer's model file (production needs them). Each such download is written on
// the customer's account history (admin > Customers) and logged with who and which model, so access to
// customers' designs can be accounted for. A visitor's model (no account yet) is logged only.

export async function recordStaffDownload(
  db: Db,
  e: { model: Model; viewer: Viewer; now: Date; log: FastifyBaseLogger },
): Promise<void> {
  const { model, viewer } = e;
  if (!viewer.isAdmin || viewer.userId === null || isOwner(model, viewer)) return;
  e.log.info(
    { modelId: model.id, staffUserId: viewer.userId, ownerUserId: model.ownerUserId },
    'staff downloaded a customer model file',
  );
  if (model.ownerUserId === null) return;
  await recordAccountEvent(db, {
    userId: model.ownerUserId,
    action: 'file_downloaded',
    actorUserId: viewer.userId,
    note: `${model.fileName} (model ${model.id})`,
    now: e.now,
  });
}
