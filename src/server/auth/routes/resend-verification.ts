import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, parseBody, rateLimit } from '../../http/route-helpers.ts';
import { MAX_EMAIL_LENGTH, MSG } from '../schemas.ts';
import { resendVerification } from '../verification-service.ts';
import { atLeast } from './timing.ts';

const body = z.object({ username: z.string().trim().max(MAX_EMAIL_LENGTH, MSG.resendRequired) });

const URL = '/api/resend_verification.php';

/** POST /api/resend_verification.php {username} -> always the same 200 {message} (SPEC.md §8). */
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
      const input = parseBody(body, req.body, { fields: ['username'], message: MSG.resendRequired });
      await atLeast(() => resendVerification(ctx, input.username));
      return { message: MSG.resent };
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
