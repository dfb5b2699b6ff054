import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { MSG } from './schemas.ts';
import {
  isUnverifiedSession,
  resolveSession,
  SESSION_MAX_AGE_MS,
  type SessionUser,
} from './session-service.ts';

// The session cookie and the guards other features put on their routes:
//   app.get('/api/get_orders.php', { preHandler: requireUser }, async (req) => list(ctx, req.user!.id))
//   app.post('/api/admin/...', { preHandler: requireAdmin }, ...)
// or, where logging in is optional: const user = await getSessionUser(req).

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user once `requireUser`/`requireAdmin` ran; null otherwise. */
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Resolves a request's session cookie (set by sessionPlugin; use getSessionUser(req)). */
    resolveSessionUser(req: FastifyRequest): Promise<SessionUser | null>;
    /** What the session guards need of the app (set by sessionPlugin). */
    sessionContext: AppContext;
  }
}

type SessionConfig = Pick<Config, 'secureCookies'>;

/** `__Host-session` over HTTPS (Secure, Path=/, no Domain: the browser enforces all three), else `session`. */
export function sessionCookieName(config: SessionConfig): string {
  return config.secureCookies ? '__Host-session' : 'session';
}

function cookieOptions(config: SessionConfig) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };
}

export function readSessionToken(req: FastifyRequest, config: SessionConfig): string | undefined {
  return req.cookies[sessionCookieName(config)];
}

export function setSessionCookie(reply: FastifyReply, config: SessionConfig, token: string): void {
  reply.setCookie(sessionCookieName(config), token, {
    ...cookieOptions(config),
    maxAge: Math.floor(SESSION_MAX_AGE_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: SessionConfig): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
}

const lookups = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

/**
 * The user of the request's session cookie, or null; looked up once per request. Works in any route of an
 * app where `sessionPlugin` is registered.
 */
export function getSessionUser(req: FastifyRequest): Promise<SessionUser | null> {
  let lookup = lookups.get(req);
  if (!lookup) {
    if (!req.server.hasDecorator('resolveSessionUser')) throw new Error('sessionPlugin is not registered');
    lookup = req.server.resolveSessionUser(req);
    lookups.set(req, lookup);
  }
  return lookup;
}

/** preHandler: 401 `{ error }` unless logged in; sets `req.user`. */
export async function requireUser(req: FastifyRequest): Promise<void> {
  const user = await getSessionUser(req);
  if (!user) throw new HttpError(401, MSG.notLoggedIn);
  req.user = user;
}

/**
 * preHandler for what needs a verified account (the checkout): as requireUser, but a session of an account
 * that is not verified (any more) gets 403 with the specified 'Account not verified' wording instead of 401.
 */
export async function requireVerifiedUser(req: FastifyRequest): Promise<void> {
  const user = await getSessionUser(req);
  if (user) {
    req.user = user;
    return;
  }
  const ctx = req.server.sessionContext;
  if (await isUnverifiedSession(ctx, readSessionToken(req, ctx.config)))
    throw new HttpError(403, MSG.notVerified);
  throw new HttpError(401, MSG.notLoggedIn);
}

/** preHandler: 401 when logged out, 403 `{ error: 'Admin access required.' }` (and a log line) for non-admins. */
export async function requireAdmin(req: FastifyRequest): Promise<void> {
  await requireUser(req);
  if (!req.user?.isAdmin) {
    req.log.warn({ userId: req.user?.id, url: req.routeOptions.url }, 'non-admin refused on an admin route');
    throw new HttpError(403, MSG.adminRequired);
  }
}

/** Decorates requests with `user` and makes getSessionUser/requireUser/requireAdmin work. Register once, early. */
export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { ctx: AppContext }) => {
    app.decorateRequest('user', null);
    app.decorate('sessionContext', opts.ctx);
    app.decorate('resolveSessionUser', (req: FastifyRequest) =>
      resolveSession(opts.ctx, readSessionToken(req, opts.ctx.config)),
    );
  },
  { name: 'shop-session', dependencies: ['@fastify/cookie'] },
);
