import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import { addNote } from './add-note.ts';
import { type AdminRouteOptions, sendOrder } from './answer.ts';
import { orderIdOf } from './params.ts';

/** POST /api/admin/orders/:id/notes: 200 { order }; 400; 404. */
export async function noteRoute(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  const route = API.adminOrderNote;
  app.post(route.path, { preHandler: requireAdmin }, async (req, reply) => {
    const orderId = orderIdOf(req.params);
    await addNote(ctx, orderId, parseRouteBody(route, req.body), req.user!.id);
    return sendOrder(reply, ctx, orderId);
  });
  methodNotAllowed(app, route.path, ['POST']);
}
