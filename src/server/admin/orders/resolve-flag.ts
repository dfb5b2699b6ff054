import { and, eq } from 'drizzle-orm';
import { FLAG_LABELS } from '../../../shared/admin.ts';
import type { AppContext } from '../../context.ts';
import { orderEvents, orderFlags } from '../../db/schema.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { lockOrderOr404 } from './guards.ts';
import { ADMIN_MSG } from './params.ts';

// POST /api/admin/orders/:id/flags/:flagId/resolve: staff say how a flag was dealt with. Resolved once (the
// order lock serialises two admins; the second gets 409); a blocking flag resolved lets the order move on.

export async function resolveFlag(
  ctx: AppContext,
  orderId: number,
  flagId: number,
  note: string,
  actorUserId: number,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrderOr404(tx, orderId);
    const [flag] = await tx
      .select()
      .from(orderFlags)
      .where(and(eq(orderFlags.id, flagId), eq(orderFlags.orderId, order.id)));
    if (!flag) throw new HttpError(404, ADMIN_MSG.flagNotFound);
    if (flag.resolvedAt) throw new HttpError(409, ADMIN_MSG.flagResolved);
    const now = ctx.now();
    await tx
      .update(orderFlags)
      .set({ resolvedAt: now, resolvedBy: actorUserId, resolutionNote: note })
      .where(eq(orderFlags.id, flag.id));
    await tx.insert(orderEvents).values({
      orderId: order.id,
      kind: 'flag',
      actor: 'admin',
      actorUserId,
      note: `Resolved "${FLAG_LABELS[flag.kind]}": ${note}`,
      metadata: { flagId: flag.id, kind: flag.kind, resolved: true },
      createdAt: now,
    });
  });
}
