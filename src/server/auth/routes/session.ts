import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AppContext } from '../../context.ts';
import { methodNotAllowed, NO_STORE } from '../../http/route-helpers.ts';
import { MSG } from '../schemas.ts';
import { clearSessionCookie, getSessionUser, readSessionToken } from '../session-plugin.ts';
import { endSession } from '../session-service.ts';

/** Called at every logout, e.g. to end the browser's visitor cookie. */
export type OnLogout = (req: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/** GET check_session.php, GET get_user_role.php, GET logout.php (docs/api.md). */
export function sessionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { onLogout?: OnLogout | undefined } = {},
) {
  app.get(API.checkSession.path, async (req, reply) => {
    reply.header('cache-control', NO_STORE);
    const user = await getSessionUser(req);
    if (!user) {
      // A visitor without a session cookie is simply logged out (200: nothing failed, and the browser logs
      // no error on every page load). A cookie that no longer names a session gets 401 (docs/security.md 9)
      // and is dropped, so it happens once.
      if (readSessionToken(req, ctx.config) === undefined) return { loggedIn: false };
      clearSessionCookie(reply, ctx.config);
      return reply.code(401).send({ loggedIn: false });
    }
    // The email too, for the customer's own forms (the contact form is filled in with it).
    return { loggedIn: true, username: user.username, email: user.email };
  });
  methodNotAllowed(app, API.checkSession.path, ['GET']);

  app.get(API.userRole.path, async (req, reply) => {
    reply.header('cache-control', NO_STORE);
    const user = await getSessionUser(req);
    if (!user) return reply.code(401).send({ isAdmin: false, error: MSG.notLoggedIn });
    return { isAdmin: user.isAdmin };
  });
  methodNotAllowed(app, API.userRole.path, ['GET']);

  // docs/api.md makes logout a GET, which the origin check lets through; so that another site cannot log a
  // customer out with a link or an image, a GET the browser marks as sent from another site is refused
  // here (a typed or bookmarked URL says `none` and works). POST is accepted too (and origin-checked).
  app.route({
    method: ['GET', 'POST'],
    url: API.logout.path,
    handler: async (req, reply) => {
      const site = req.headers['sec-fetch-site'];
      if (site === 'cross-site' || site === 'same-site') {
        req.log.warn({ site }, 'refused a cross-site logout');
        return reply
          .code(403)
          .header('cache-control', NO_STORE)
          .send({ error: 'Cross-site request refused.' });
      }
      await endSession(ctx, readSessionToken(req, ctx.config));
      clearSessionCookie(reply, ctx.config);
      await deps.onLogout?.(req, reply);
      return reply.header('cache-control', NO_STORE).send({ message: MSG.loggedOut });
    },
  });
  methodNotAllowed(app, API.logout.path, ['GET', 'POST']);
}
