import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, NO_STORE, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import type { DeviceCookies } from '../device-cookie.ts';
import { MSG } from '../schemas.ts';
import { redeemSignInLink } from '../sign-in-link-service.ts';
import { logBrowserIn, type OnLogin } from './browser-login.ts';

const URL = API.signInLink.path;

/**
 * POST /api/sign-in-link {token} (the step-up's mailed link, sent by the /sign-in page) -> {message,
 * username} + a new session cookie and a device cookie, exactly as a password login. A POST, never a GET:
 * mail scanners open links, and must not use the token up.
 */
export function signInLinkRoute(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { devices: DeviceCookies; onLogin?: OnLogin | undefined },
) {
  app.post(
    URL,
    {
      config: {
        rateLimit: rateLimit(ctx.config, {
          max: 10,
          windowMs: 15 * 60_000,
          message: 'Too many sign-in link attempts. Please wait a while before trying again.',
        }),
      },
    },
    async (req, reply) => {
      const input = parseRouteBody(API.signInLink, req.body);
      const user = await redeemSignInLink(ctx, input.token);
      await logBrowserIn(ctx, req, reply, user, deps);
      return reply.header('cache-control', NO_STORE).send({ message: MSG.loggedIn, username: user.username });
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
