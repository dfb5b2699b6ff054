import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import { requireUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, NO_STORE } from '../http/route-helpers.ts';
import { listOrdersForUser } from './list-orders.ts';

/** GET /api/get_orders.php: the logged-in user's orders (docs/api.md); 401 when logged out. */
export async function orderRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  app.get(API.orders.path, { preHandler: requireUser }, async (req, reply) => {
    reply.header('cache-control', NO_STORE);
    return listOrdersForUser(opts.ctx.db, req.user!.id, opts.ctx.now());
  });
  methodNotAllowed(app, API.orders.path, ['GET']);
}
