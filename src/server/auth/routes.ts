import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { scaled } from '../http/route-helpers.ts';
import { deviceCookies } from './device-cookie.ts';
import { LoginThrottle, MemoryAttemptLimiter } from './login-throttle.ts';
import { RedisAttemptLimiter } from './redis-attempt-limiter.ts';
import { loginRoute, type OnLogin } from './routes/login.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { registerRoute } from './routes/register.ts';
import { resendVerificationRoute } from './routes/resend-verification.ts';
import { type OnLogout, sessionRoutes } from './routes/session.ts';
import { signInLinkRoute } from './routes/sign-in-link.ts';
import { verifyEmailRoute } from './routes/verify-email.ts';

export type { OnLogin } from './routes/login.ts';
export type { OnLogout } from './routes/session.ts';

/**
 * Failed logins per login name from one client (an address bucket, or a browser's device cookie) before a
 * 429, and the window they count in (before RATE_LIMIT_SCALE).
 */
export const FAILED_LOGINS_MAX = 5;
export const FAILED_LOGINS_WINDOW_MS = 15 * 60_000;
/**
 * Failed logins per login name from all clients without a device cookie together: the limit a guesser on
 * many addresses meets (ASVS 6.3.1: at most 100 an hour per account, which has two names). Past it, such
 * clients get the step-up (a mailed sign-in link for the right password), never an answer that tells.
 */
export const DISTRIBUTED_FAILED_LOGINS_MAX = 50;
export const DISTRIBUTED_FAILED_LOGINS_WINDOW_MS = 60 * 60_000;

export type AuthRoutesOptions = {
  ctx: AppContext;
  /** Runs after every successful login (e.g. moving a visitor's uploads to the account). */
  onLogin?: OnLogin;
  /** Runs at every logout (e.g. ending the browser's visitor cookie). */
  onLogout?: OnLogout;
  /** The failed-login throttle; in process by default, in this Redis when given one. */
  loginThrottle?: LoginThrottle;
  redis?: { client: Redis; prefix: string } | undefined;
};

/** Every account call of docs/api.md plus the verification link. Needs sessionPlugin registered first. */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { ctx } = opts;
  const rules = {
    perClient: { max: scaled(ctx.config, FAILED_LOGINS_MAX), windowMs: FAILED_LOGINS_WINDOW_MS },
    perName: {
      max: scaled(ctx.config, DISTRIBUTED_FAILED_LOGINS_MAX),
      windowMs: DISTRIBUTED_FAILED_LOGINS_WINDOW_MS,
    },
  };
  const limiter = (rule: { max: number; windowMs: number }) =>
    opts.redis
      ? new RedisAttemptLimiter(opts.redis.client, { ...rule, prefix: opts.redis.prefix, log: app.log })
      : new MemoryAttemptLimiter(rule);
  const throttle = opts.loginThrottle ?? new LoginThrottle(limiter(rules.perClient), limiter(rules.perName));
  const devices = deviceCookies(ctx.db, ctx.config);
  registerRoute(app, ctx);
  verifyEmailRoute(app, ctx);
  resendVerificationRoute(app, ctx);
  loginRoute(app, ctx, { throttle, devices, onLogin: opts.onLogin });
  signInLinkRoute(app, ctx, { devices, onLogin: opts.onLogin });
  sessionRoutes(app, ctx, { onLogout: opts.onLogout });
  passwordResetRoutes(app, ctx, { throttle });
}
