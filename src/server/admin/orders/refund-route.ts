import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import { type AdminRouteOptions, sendOrder } from './answer.ts';
import { orderIdOf } from './params.ts';
import { refundOrder } from './refund-order.ts';

/** POST /api/admin/orders/:id/refund: 200 { order } refunded; 202 pending; 400; 404; 502 refused. */
export async function refundRoute(app: FastifyInstance, { ctx, payments }: AdminRouteOptions) {
  const route = API.adminOrderRefund;
  app.post(route.path, { preHandler: requireAdmin }, async (req, reply) => {
    const orderId = orderIdOf(req.params);
    const ask = parseRouteBody(route, req.body);
    const { code } = await refundOrder({ ...payments, log: req.log }, orderId, ask, req.user!.id);
    return sendOrder(reply, ctx, orderId, code);
  });
  methodNotAllowed(app, route.path, ['POST']);
}
