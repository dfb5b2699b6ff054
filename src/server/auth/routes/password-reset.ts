import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { clientBucket } from '../../http/client-key.ts';
import { methodNotAllowed, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import type { LoginThrottle } from '../login-throttle.ts';
import { requestPasswordReset, resetPassword } from '../password-reset-service.ts';
import { MSG } from '../schemas.ts';
import { clearSessionCookie } from '../session-plugin.ts';
import { atLeast } from './timing.ts';

/** POST request_password_reset.php {email} and POST reset_password.php {token, password, confirmPassword}. */
export function passwordResetRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { throttle: LoginThrottle },
) {
  app.post(
    API.requestPasswordReset.path,
    {
      config: {
        rateLimit: rateLimit(ctx.config, { max: 5, windowMs: 15 * 60_000, message: MSG.forgotTooMany }),
      },
    },
    async (req) => {
      const input = parseRouteBody(API.requestPasswordReset, req.body);
      await atLeast(() => requestPasswordReset(ctx, input.email));
      return { message: MSG.forgotSent };
    },
  );
  methodNotAllowed(app, API.requestPasswordReset.path, ['POST']);

  app.post(
    API.resetPassword.path,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 10,
          windowMs: 15 * 60_000,
          message: 'Too many password reset attempts. Please wait a while before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const input = parseRouteBody(API.resetPassword, req.body);
      if (input.password !== input.confirmPassword) throw new HttpError(400, MSG.passwordsDoNotMatch);
      const user = await resetPassword(ctx, { token: input.token, password: input.password });
      req.log.info({ userId: user.id }, 'password reset');
      // Whoever proved access to the inbox may log in at once, even after failed attempts.
      await deps.throttle.clear([user.username, user.email], clientBucket(req.ip));
      // Not logged in by a reset (docs/security.md 12): any session cookie this browser had is gone too.
      clearSessionCookie(reply, ctx.config);
      return { message: MSG.resetDone };
    },
  );
  methodNotAllowed(app, API.resetPassword.path, ['POST']);
}
