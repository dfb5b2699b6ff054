import type { FastifyInstance } from 'fastify';
import { adminOrdersQuery } from '../../../shared/admin.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody } from '../../http/route-helpers.ts';
import { type AdminRouteOptions, detailOr404 } from './answer.ts';
import { listAdminOrders } from './list-orders.ts';
import { orderIdOf } from './params.ts';

/** GET /api/admin/orders (the board) and GET /api/admin/orders/:id (one order). */
export async function listRoutes(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  app.get(API.adminOrders.path, { preHandler: requireAdmin }, async (req) => {
    const filter = parseBody(adminOrdersQuery, req.query);
    return listAdminOrders(ctx.db, filter, ctx.now());
  });
  methodNotAllowed(app, API.adminOrders.path, ['GET']);

  app.get(API.adminOrder.path, { preHandler: requireAdmin }, async (req) =>
    detailOr404(ctx, orderIdOf(req.params)),
  );
  methodNotAllowed(app, API.adminOrder.path, ['GET']);
}
