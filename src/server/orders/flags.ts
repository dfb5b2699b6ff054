import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { FLAG_LABELS } from '../../shared/admin.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { type Order, type OrderFlagKind, orderEvents, orderFlags } from '../db/schema.ts';
import { flagMail, queueOrderMail } from './order-mails.ts';

// Flags: why staff must look at an order (money that does not match, paid after a cancel, an address the
// shop's rules refuse, a refund or dispute made in the provider, a model corrected). Raised inside the
// transaction that found the problem, with the order row locked: logged at warn level and mailed to
// SHOP_EMAIL through the outbox in that same transaction. A cause with a key (a provider event, a dispute)
// raises its flag once, however often it is told.

export type NewFlag = {
  kind: OrderFlagKind;
  details: string;
  /** Stops the order moving on until resolved (cancelling still works). */
  blocking?: boolean;
  /** Identifies the cause: the same kind and key on one order make one flag. */
  sourceKey?: string;
  actor: string;
};

/** Raises a flag on a locked order; false when that cause had flagged it already. */
export async function raiseFlag(
  tx: Db,
  ctx: Pick<AppContext, 'config' | 'now'>,
  log: FastifyBaseLogger | undefined,
  order: Order,
  flag: NewFlag,
): Promise<boolean> {
  const now = ctx.now();
  const [row] = await tx
    .insert(orderFlags)
    .values({
      orderId: order.id,
      kind: flag.kind,
      details: flag.details,
      blocking: flag.blocking ?? false,
      sourceKey: flag.sourceKey ?? null,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: orderFlags.id });
  if (!row) return false;
  const label = FLAG_LABELS[flag.kind];
  await tx.insert(orderEvents).values({
    orderId: order.id,
    kind: 'flag',
    actor: flag.actor,
    note: `${label}: ${flag.details}`,
    metadata: { flagId: row.id, kind: flag.kind, blocking: flag.blocking ?? false },
    createdAt: now,
  });
  const { config } = ctx;
  await queueOrderMail(
    tx,
    order,
    flagMail({ shopName: config.shopName, publicUrl: config.publicUrl }, config, order, label, flag.details),
    { actor: 'system', now },
  );
  log?.warn({ orderId: order.id, flag: flag.kind, flagId: row.id }, `order flagged: ${label}`);
  return true;
}

export async function openFlagCount(tx: Db, orderId: number): Promise<{ open: number; blocking: number }> {
  const rows = await tx
    .select({ blocking: orderFlags.blocking, n: count() })
    .from(orderFlags)
    .where(and(eq(orderFlags.orderId, orderId), isNull(orderFlags.resolvedAt)))
    .groupBy(orderFlags.blocking);
  let open = 0;
  let blocking = 0;
  for (const r of rows) {
    open += r.n;
    if (r.blocking) blocking += r.n;
  }
  return { open, blocking };
}
