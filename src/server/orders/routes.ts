import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../shared/api.ts';
import { orderAgainPayload } from '../../shared/orders.ts';
import { requireUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, NO_STORE, rateLimit } from '../http/route-helpers.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { listOrdersForUser } from './list-orders.ts';
import { ORDER_AGAIN_MSG, orderAgain } from './order-again.ts';

const orderParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * GET /api/get_orders.php: the logged-in user's orders (docs/api.md); POST /api/orders/:id/order-again: one
 * of them as cart lines at today's prices. 401 when logged out; another customer's order is a 404.
 */
export async function orderRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.get(API.orders.path, { preHandler: requireUser }, async (req, reply) => {
    reply.header('cache-control', NO_STORE);
    return listOrdersForUser(ctx.db, req.user!.id, ctx.now());
  });
  methodNotAllowed(app, API.orders.path, ['GET']);

  app.post(
    API.orderAgain.path,
    {
      preHandler: requireUser,
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 60,
          windowMs: 10 * 60_000,
          message: 'Too many requests. Please wait before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const parsed = orderParams.safeParse(req.params);
      if (!parsed.success) throw new HttpError(404, ORDER_AGAIN_MSG.notFound);
      const user = req.user!;
      const payload = await orderAgain(ctx, { id: user.id, isAdmin: user.isAdmin }, parsed.data.id);
      return reply.header('cache-control', NO_STORE).send(orderAgainPayload.parse(payload));
    },
  );
  methodNotAllowed(app, API.orderAgain.path, ['POST']);
}
