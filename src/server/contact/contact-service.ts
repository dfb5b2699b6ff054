import type { AppContext } from '../context.ts';
import { contactMessages } from '../db/schema.ts';
import { enqueueMail } from '../jobs/outbox-repository.ts';
import { contactMessageMail } from '../mail/templates.ts';

export type ContactInput = { name: string; email: string; message: string };

/**
 * Keeps the message and queues a mail to the shop (Reply-To: the sender) in one transaction, so a message
 * is never stored without its mail nor mailed without being stored.
 */
export async function submitContactMessage(
  ctx: AppContext,
  input: ContactInput,
  sender?: { id: number; username: string } | null,
): Promise<{ id: number }> {
  const now = ctx.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({ ...input, userId: sender?.id ?? null, createdAt: now })
      .returning({ id: contactMessages.id });
    if (!row) throw new Error('contact message insert returned no row');
    const brand = { shopName: ctx.config.shopName, publicUrl: ctx.config.publicUrl };
    await enqueueMail(
      tx,
      contactMessageMail(brand, { to: ctx.config.shopEmail, ...input, username: sender?.username }),
      { now },
    );
    return row.id;
  });
  ctx.outbox?.poke();
  return { id };
}
