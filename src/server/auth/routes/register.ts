import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import { registerUser } from '../register-service.ts';
import { MSG } from '../schemas.ts';

const URL = API.register.path;

/** POST /api/register.php {username, email, password} -> 201 {message}; 409 when taken (docs/api.md). */
export function registerRoute(app: FastifyInstance, ctx: AppContext) {
  app.post(
    URL,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 10,
          windowMs: 3600_000,
          message:
            'Too many registration attempts from your location. Please wait a while before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const input = parseRouteBody(API.register, req.body);
      await registerUser(ctx, input);
      return reply.code(201).send({ message: MSG.registered });
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
