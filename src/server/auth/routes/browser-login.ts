import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import type { DeviceCookies } from '../device-cookie.ts';
import { readSessionToken, setSessionCookie } from '../session-plugin.ts';
import { createSession, endSession } from '../session-service.ts';

/** Called after a successful login, e.g. to move a visitor's uploads to the account. */
export type OnLogin = (userId: number, req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Logs this browser in to `user`, whatever proved it was them (a password, a mailed sign-in link): a new
 * session, a device cookie, and the after-login hook.
 */
export async function logBrowserIn(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: User,
  deps: { devices: DeviceCookies; onLogin?: OnLogin | undefined },
): Promise<void> {
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
}
