import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import { type AdminRouteOptions, sendOrder } from './answer.ts';
import { flagIdOf, orderIdOf } from './params.ts';
import { resolveFlag } from './resolve-flag.ts';

/** POST /api/admin/orders/:id/flags/:flagId/resolve: 200 { order }; 400; 404; 409 resolved already. */
export async function flagRoute(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  const route = API.adminResolveFlag;
  app.post(route.path, { preHandler: requireAdmin }, async (req, reply) => {
    const orderId = orderIdOf(req.params);
    const flagId = flagIdOf(req.params);
    const { note } = parseRouteBody(route, req.body);
    await resolveFlag(ctx, orderId, flagId, note, req.user!.id);
    return sendOrder(reply, ctx, orderId);
  });
  methodNotAllowed(app, route.path, ['POST']);
}
