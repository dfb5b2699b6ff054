import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, parseBody, rateLimit } from '../../http/route-helpers.ts';
import { registerUser } from '../register-service.ts';
import { emailField, MSG, newPasswordField, usernameField } from '../schemas.ts';

const body = z.object({ username: usernameField, email: emailField, password: newPasswordField });

const URL = '/api/register.php';

/** POST /api/register.php {username, email, password} -> 201 {message}; 409 when taken (SPEC.md §7). */
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
      const input = parseBody(body, req.body, {
        fields: ['username', 'email', 'password'],
        message: MSG.registerRequired,
      });
      await registerUser(ctx, input);
      return reply.code(201).send({ message: MSG.registered });
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
