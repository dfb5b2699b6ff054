import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { adminOrdersQuery } from '../../../shared/admin.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody } from '../../http/route-helpers.ts';
import { shopDate } from '../../shipping/ship-by.ts';
import type { AdminRouteOptions } from './answer.ts';
import { scopeCondition } from './order-filter.ts';
import { ordersCsv } from './orders-csv.ts';

/** GET /api/admin/orders.csv?status=&q=&from=&to=: the filtered list as a CSV download, streamed. */
export async function csvRoute(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  app.get(API.adminOrdersCsv.path, { preHandler: requireAdmin }, async (req, reply) => {
    const filter = parseBody(adminOrdersQuery, req.query);
    scopeCondition(filter); // a day that does not exist is a 400 now, not a broken download
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="orders-${shopDate(ctx.now())}.csv"`)
      .header('x-content-type-options', 'nosniff')
      .send(Readable.from(ordersCsv(ctx.db, filter)));
  });
  methodNotAllowed(app, API.adminOrdersCsv.path, ['GET']);
}
