import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import { type AdminRouteOptions, sendOrder } from './answer.ts';
import { changeStatus } from './change-status.ts';
import { orderIdOf } from './params.ts';

/** POST /api/admin/orders/:id/status: 200 { order }; 202 a cancel's refund awaits the provider; 400; 404; 409; 502. */
export async function statusRoute(app: FastifyInstance, { ctx, payments }: AdminRouteOptions) {
  const route = API.adminOrderStatus;
  app.post(route.path, { preHandler: requireAdmin }, async (req, reply) => {
    const orderId = orderIdOf(req.params);
    const change = parseRouteBody(route, req.body);
    const { code } = await changeStatus({ ...payments, log: req.log }, orderId, change, req.user!.id);
    return sendOrder(reply, ctx, orderId, code);
  });
  methodNotAllowed(app, route.path, ['POST']);
}
