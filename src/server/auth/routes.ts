import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { scaled } from '../http/route-helpers.ts';
import { type AttemptLimiter, MemoryAttemptLimiter } from './login-throttle.ts';
import { RedisAttemptLimiter } from './redis-attempt-limiter.ts';
import { loginRoute, type OnLogin } from './routes/login.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { registerRoute } from './routes/register.ts';
import { resendVerificationRoute } from './routes/resend-verification.ts';
import { type OnLogout, sessionRoutes } from './routes/session.ts';
import { verifyEmailRoute } from './routes/verify-email.ts';

export type { OnLogin } from './routes/login.ts';
export type { OnLogout } from './routes/session.ts';

/** Failed logins per username before a 429, and the window they count in (before RATE_LIMIT_SCALE). */
export const FAILED_LOGINS_MAX = 5;
export const FAILED_LOGINS_WINDOW_MS = 15 * 60_000;

export type AuthRoutesOptions = {
  ctx: AppContext;
  /** Runs after every successful login (e.g. moving a visitor's uploads to the account). */
  onLogin?: OnLogin;
  /** Runs at every logout (e.g. ending the browser's visitor cookie). */
  onLogout?: OnLogout;
  /** The failed-login throttle; in process by default, in this Redis when given one. */
  loginLimiter?: AttemptLimiter;
  redis?: { client: Redis; prefix: string } | undefined;
};

/** Every account call of SPEC.md §7 plus the verification link. Needs sessionPlugin registered first. */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { ctx } = opts;
  const rule = { max: scaled(ctx.config, FAILED_LOGINS_MAX), windowMs: FAILED_LOGINS_WINDOW_MS };
  const limiter =
    opts.loginLimiter ??
    (opts.redis
      ? new RedisAttemptLimiter(opts.redis.client, { ...rule, prefix: opts.redis.prefix, log: app.log })
      : new MemoryAttemptLimiter(rule));
  registerRoute(app, ctx);
  verifyEmailRoute(app, ctx);
  resendVerificationRoute(app, ctx);
  loginRoute(app, ctx, { limiter, onLogin: opts.onLogin });
  sessionRoutes(app, ctx, { onLogout: opts.onLogout });
  passwordResetRoutes(app, ctx, { limiter });
}
