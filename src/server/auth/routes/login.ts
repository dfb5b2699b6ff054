import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { clientBucket } from '../../http/client-key.ts';
import { methodNotAllowed, NO_STORE, parseRouteBody, rateLimit } from '../../http/route-helpers.ts';
import type { DeviceCookies } from '../device-cookie.ts';
import { authenticate } from '../login-service.ts';
import type { LoginThrottle } from '../login-throttle.ts';
import { MSG } from '../schemas.ts';
import { readSessionToken, setSessionCookie } from '../session-plugin.ts';
import { createSession, endSession } from '../session-service.ts';

/** Called after a successful login, e.g. to move a visitor's uploads to the account. */
export type OnLogin = (userId: number, req: FastifyRequest, reply: FastifyReply) => Promise<void>;

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
        { bucket: clientBucket(req.ip), trustedDevice: (userId) => deps.devices.trustedNonce(req, userId) },
      );
      // Rotation: the session the browser had (if any) ends; a new id is issued (docs/security.md 8).
      await endSession(ctx, readSessionToken(req, ctx.config));
      const session = await createSession(ctx, user.id);
      setSessionCookie(reply, ctx.config, session.token);
      // This browser has now logged in to the account: others' failures will not lock it out.
      await deps.devices.issue(req, reply, user.id);
      req.log.info({ userId: user.id }, 'logged in');
      if (deps.onLogin) {
        try {
          await deps.onLogin(user.id, req, reply);
        } catch (err) {
          // The login itself succeeded; what follows it must not undo it.
          req.log.error({ err, userId: user.id }, 'after-login hook failed');
        }
      }
      return reply.header('cache-control', NO_STORE).send({ message: MSG.loggedIn, username: user.username });
    },
  );
  methodNotAllowed(app, URL, ['POST']);
}
