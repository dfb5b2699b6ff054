import type { FastifyInstance } from 'fastify';
import { API } from '../../shared/api.ts';
import { requireUser } from '../auth/session-plugin.ts';
import type { AppContext } from '../context.ts';
import { methodNotAllowed, NO_STORE, parseRouteBody, rateLimit } from '../http/route-helpers.ts';
import { loadSavedCart, saveCart } from './saved-cart.ts';

// GET /api/cart and PUT /api/cart: a logged-in customer's cart, kept on the server (401 for visitors,
// whose cart lives in the browser only). PUT replaces the whole cart; a bad line is a 400 that stores
// nothing.

export async function cartRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.get(API.savedCart.path, { preHandler: requireUser }, async (req, reply) => {
    const items = await loadSavedCart(ctx.db, req.user!.id);
    return reply.header('cache-control', NO_STORE).send({ items });
  });

  app.put(
    API.saveCart.path,
    {
      preHandler: requireUser,
      config: {
        // The browser saves after each change (debounced): far below this for a person.
        rateLimit: rateLimit(ctx.config, {
          max: 120,
          windowMs: 60_000,
          message: 'Too many requests. Please wait before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const { items } = parseRouteBody(API.saveCart, req.body);
      await saveCart(ctx.db, req.user!.id, items, ctx.now());
      return reply.header('cache-control', NO_STORE).send({ items });
    },
  );
  methodNotAllowed(app, API.savedCart.path, ['GET', 'PUT']);
}
