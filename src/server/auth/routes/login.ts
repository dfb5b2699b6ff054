import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { clientBucket } from '../../http/client-key.ts';
import { methodNotAllowed, NO_STORE, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import type { DeviceCookies } from '../device-cookie.ts';
import { authenticate } from '../login-service.ts';
import type { LoginThrottle } from '../login-throttle.ts';
import { MSG } from '../schemas.ts';
import { logBrowserIn, type OnLogin } from './browser-login.ts';

export type { OnLogin } from './browser-login.ts';

const URL = API.login.path;

/** POST /api/login.php {username, password} (username or email) -> {message, username} + a new session cookie. */
export function loginRoute(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { throttle: LoginThrottle; devices: DeviceCookies; onLogin?: OnLogin | undefined },
) {
  app.post(
    URL,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 20,
          windowMs: 15 * 60_000,
          message: 'Too many login attempts from your location. Please wait a while before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const input = parseRouteBody(API.login, req.body);
      const user = await authenticate(
        ctx,
        deps.throttle,
        { login: input.username, password: input.password },
        {
          bucket: clientBucket(req.ip),
          trustedDevice: (userId) => deps.devices.trustedNonce(req, userId),
          log: req.log,
        },
      );
      await logBrowserIn(ctx, req, reply, user, deps);
      return reply.header('cache-control', NO_STORE).send({ message: MSG.loggedIn, username: user.username });
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
