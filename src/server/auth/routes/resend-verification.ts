import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import { MSG } from '../schemas.ts';
import { resendVerification } from '../verification-service.ts';
import { atLeast } from './timing.ts';

const URL = API.resendVerification.path;

/** POST /api/resend_verification.php {username} -> always the same 200 {message} (docs/api.md). */
export function resendVerificationRoute(app: FastifyInstance, ctx: AppContext) {
  app.post(
    URL,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 5,
          windowMs: 15 * 60_000,
          message:
            'Too many verification emails have been requested. Please wait a while before trying again.',
        }),
      },
    },
    async (req) => {
      const input = parseRouteBody(API.resendVerification, req.body);
      await atLeast(() => resendVerification(ctx, input.username));
      return { message: MSG.resent };
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
