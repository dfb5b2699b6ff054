import { and, asc, eq, isNull } from 'drizzle-orm';
import { FLAG_LABELS } from '../../../shared/admin.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { type Order, orderFlags } from '../../db/schema.ts';
import type { MailBrand } from '../../mail/templates.ts';
import { lockOrder } from '../../orders/state-machine.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { ADMIN_MSG } from './params.ts';

// What every order-changing admin service starts with, inside its transaction.

/** The order row locked until the transaction ends; 404 when there is none. */
export async function lockOrderOr404(tx: Db, orderId: number): Promise<Order> {
  const order = await lockOrder(tx, orderId);
  if (!order) throw new HttpError(404, ADMIN_MSG.orderNotFound);
  return order;
}

/** 409 naming the first open blocking flag: the order may not move on (but to cancelled) until it is resolved. */
export async function refuseWhileBlocked(tx: Db, orderId: number): Promise<void> {
  const [flag] = await tx
    .select({ kind: orderFlags.kind })
    .from(orderFlags)
    .where(and(eq(orderFlags.orderId, orderId), eq(orderFlags.blocking, true), isNull(orderFlags.resolvedAt)))
    .orderBy(asc(orderFlags.id))
    .limit(1);
  if (flag) throw new HttpError(409, ADMIN_MSG.blocked(FLAG_LABELS[flag.kind]));
}

export function brandOf(config: Pick<Config, 'shopName' | 'publicUrl'>): MailBrand {
  return { shopName: config.shopName, publicUrl: config.publicUrl };
}
