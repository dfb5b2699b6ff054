import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseRouteBody } from '../../http/route-helpers.ts';
import type { AdminRouteOptions } from './answer.ts';
import { productionSheet } from './production-sheet.ts';
import { startBatch } from './start-batch.ts';

/** GET /api/admin/production (the sheet) and POST /api/admin/production/start { orderIds }. */
export async function productionRoutes(app: FastifyInstance, { ctx }: AdminRouteOptions) {
  app.get(API.adminProduction.path, { preHandler: requireAdmin }, async () =>
    productionSheet(ctx.db, ctx.now()),
  );
  methodNotAllowed(app, API.adminProduction.path, ['GET']);

  const start = API.adminProductionStart;
  app.post(start.path, { preHandler: requireAdmin }, async (req) => {
    const { orderIds } = parseRouteBody(start, req.body);
    return startBatch(ctx, orderIds, req.user!.id);
  });
  methodNotAllowed(app, start.path, ['POST']);
}
