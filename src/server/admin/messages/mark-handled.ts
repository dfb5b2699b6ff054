import { and, eq, isNull } from 'drizzle-orm';
import { type AdminMessageChanged, MESSAGES_MSG } from '../../../shared/admin-messages.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { messageById, unhandledCount } from './list-messages.ts';

// POST /api/admin/messages/:id/handled { value }: handled by this admin now, or back to unhandled. Marking
// a handled message handled again keeps who handled it first and when.

export async function markHandled(
  db: Db,
  id: number,
  value: boolean,
  by: { userId: number; now: Date },
): Promise<AdminMessageChanged> {
  if (value) {
    await db
      .update(contactMessages)
      .set({ handledAt: by.now, handledBy: by.userId })
      .where(and(eq(contactMessages.id, id), isNull(contactMessages.handledAt)));
  } else {
    await db
      .update(contactMessages)
      .set({ handledAt: null, handledBy: null })
      .where(eq(contactMessages.id, id));
  }
  const message = await messageById(db, id);
  if (!message) throw new HttpError(404, MESSAGES_MSG.notFound);
  return { message, unhandled: await unhandledCount(db) };
}
