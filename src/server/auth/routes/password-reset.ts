import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../../../shared/catalog.ts';
import type { AppContext } from '../../context.ts';
import { clientBucket } from '../../http/client-key.ts';
import { methodNotAllowed, parseBody, rateLimit } from '../../http/route-helpers.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import type { LoginThrottle } from '../login-throttle.ts';
import { requestPasswordReset, resetPassword } from '../password-reset-service.ts';
import { emailField, MSG, newPasswordField } from '../schemas.ts';
import { clearSessionCookie } from '../session-plugin.ts';
import { atLeast } from './timing.ts';

const forgotBody = z.object({ email: emailField });

const resetBody = z.object({
  token: z.string({ error: MSG.resetNoToken }).trim().min(1, MSG.resetNoToken).max(100, MSG.resetFailed),
  password: z.string({ error: MSG.passwordTooShort }).pipe(newPasswordField),
  confirmPassword: z
    .string({ error: MSG.passwordsDoNotMatch })
    .max(MAX_PASSWORD_LENGTH, MSG.passwordsDoNotMatch),
});

/** POST request_password_reset.php {email} and POST reset_password.php {token, password, confirmPassword}. */
export function passwordResetRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { throttle: LoginThrottle },
) {
  app.post(
    '/api/request_password_reset.php',
    {
      config: {
        rateLimit: rateLimit(ctx.config, { max: 5, windowMs: 15 * 60_000, message: MSG.forgotTooMany }),
      },
    },
    async (req) => {
      const input = parseBody(forgotBody, req.body, { fields: ['email'], message: MSG.forgotRequired });
      await atLeast(() => requestPasswordReset(ctx, input.email));
      return { message: MSG.forgotSent };
    },
  );
  methodNotAllowed(app, '/api/request_password_reset.php', ['POST']);

  app.post(
    '/api/reset_password.php',
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
      const input = parseBody(resetBody, req.body, { fields: ['token'], message: MSG.resetNoToken });
      if (input.password !== input.confirmPassword) throw new HttpError(400, MSG.passwordsDoNotMatch);
      const user = await resetPassword(ctx, { token: input.token, password: input.password });
      req.log.info({ userId: user.id }, 'password reset');
      // Whoever proved access to the inbox may log in at once, even after failed attempts.
      await deps.throttle.clear([user.username, user.email], clientBucket(req.ip));
      // Not logged in by a reset (SECURITY.md 12): any session cookie this browser had is gone too.
      clearSessionCookie(reply, ctx.config);
      return { message: MSG.resetDone };
    },
  );
  methodNotAllowed(app, '/api/reset_password.php', ['POST']);
}
