import type { FastifyReply } from 'fastify';
import type { AdminOrderDetail } from '../../../shared/admin.ts';
import type { AppContext } from '../../context.ts';
import type { RefundDeps } from '../../orders/refunds.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import { orderDetail } from './order-detail.ts';
import { ADMIN_MSG } from './params.ts';

/** What the admin's order routes are registered with (admin/plugin.ts). */
export type AdminRouteOptions = { ctx: AppContext; payments: RefundDeps };

export async function detailOr404(ctx: AppContext, orderId: number): Promise<AdminOrderDetail> {
  const detail = await orderDetail(ctx.db, orderId, ctx.now());
  if (!detail) throw new HttpError(404, ADMIN_MSG.orderNotFound);
  return detail;
}

/** The answer of every order-changing call: `{ order }` as it is now (src/shared/admin.ts adminOrderChanged). */
export async function sendOrder(
  reply: FastifyReply,
  ctx: AppContext,
  orderId: number,
  code: 200 | 202 = 200,
) {
  return reply.code(code).send({ order: await detailOr404(ctx, orderId) });
}
