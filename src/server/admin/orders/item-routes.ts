import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import { type AdminRouteOptions, sendOrder } from './answer.ts';
import { markItemPrinted, reprintItem } from './item-production.ts';
import { itemIdOf, orderIdOf } from './params.ts';

/** POST .../items/:itemId/reprint and .../items/:itemId/printed: 200 { order }; 400; 404; 409. */
export async function itemRoutes(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  const reprint = API.adminReprint;
  app.post(reprint.path, { preHandler: requireAdmin }, async (req, reply) => {
    const ids = { orderId: orderIdOf(req.params), itemId: itemIdOf(req.params) };
    const { reason } = parseRouteBody(reprint, req.body);
    await reprintItem(ctx, ids, reason, req.user!.id);
    return sendOrder(reply, ctx, ids.orderId);
  });
  methodNotAllowed(app, reprint.path, ['POST']);

  const printed = API.adminItemPrinted;
  app.post(printed.path, { preHandler: requireAdmin }, async (req, reply) => {
    const ids = { orderId: orderIdOf(req.params), itemId: itemIdOf(req.params) };
    parseRouteBody(printed, req.body);
    await markItemPrinted(ctx, ids, req.user!.id);
    return sendOrder(reply, ctx, ids.orderId);
  });
  methodNotAllowed(app, printed.path, ['POST']);
}
