import type { z } from 'zod';
import type { adminNoteRequest } from '../../../shared/admin.ts';
import type { AppContext } from '../../context.ts';
import { orderEvents } from '../../db/schema.ts';
import { noteMail, queueOrderMail } from '../../orders/order-mails.ts';
import { customerEmail } from '../../orders/refunds.ts';
import { brandOf, lockOrderOr404 } from './guards.ts';

// POST /api/admin/orders/:id/notes: a note on the order's timeline. An internal one stays on the timeline;
// one for the customer also shows on their My Orders and is mailed to them, in the same transaction.

export type NewNote = z.output<typeof adminNoteRequest>;

export async function addNote(ctx: AppContext, orderId: number, note: NewNote, actorUserId: number) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, orderId);
    const now = ctx.now();
    await tx.insert(orderEvents).values({
      orderId: order.id,
      kind: 'note',
      actor: 'admin',
      actorUserId,
      note: note.text,
      visibleToCustomer: note.visibleToCustomer,
      createdAt: now,
    });
    if (!note.visibleToCustomer) return;
    const mail = noteMail(brandOf(ctx.config), order, await customerEmail(tx, order), note.text);
    await queueOrderMail(tx, order, mail, { actor: 'admin', actorUserId, now });
  });
  ctx.outbox?.poke();
}
