import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { adminMessagesQuery, MESSAGES_MSG } from '../../../shared/admin-messages.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody, parseRouteBody } from '../../http/route-helpers.ts';
import { HttpError } from '../../plugins/error-handler.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { listMessages } from './list-messages.ts';
import { markHandled } from './mark-handled.ts';

// The back office's messages (issue #25; docs/api.md "Admin"): registered by ../plugin.ts.

const dbId = z.coerce.number().int().positive().max(2_147_483_647);

/** An id that is not a positive 32-bit integer names no message: 404 like an unknown one. */
function messageIdOf(params: unknown): number {
  const parsed = dbId.safeParse((params as Record<string, unknown>).id);
  if (!parsed.success) throw new HttpError(404, MESSAGES_MSG.notFound);
  return parsed.data;
}

/** GET /api/admin/messages and POST /api/admin/messages/:id/handled. */
export async function messageRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  app.get(API.adminMessages.path, { preHandler: requireAdmin }, async (req) => {
    const filter = parseBody(adminMessagesQuery, req.query);
    return { ...(await listMessages(ctx.db, filter)), shopName: ctx.config.shopName };
  });
  methodNotAllowed(app, API.adminMessages.path, ['GET']);

  app.post(API.adminMessageHandled.path, { preHandler: requireAdmin }, async (req) => {
    const id = messageIdOf(req.params);
    const { value } = parseRouteBody(API.adminMessageHandled, req.body);
    const changed = await markHandled(ctx.db, id, value, { userId: req.user!.id, now: ctx.now() });
    req.log.info({ contactMessageId: id, handled: value }, 'contact message marked');
    return changed;
  });
  methodNotAllowed(app, API.adminMessageHandled.path, ['POST']);
}
