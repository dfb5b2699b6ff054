import type { FastifyInstance } from 'fastify';
import { adminDashboardQuery } from '../../../shared/admin-dashboard.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody } from '../../http/route-helpers.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { dashboardFigures } from './dashboard.ts';

// The back office's dashboard (issue #25; docs/api.md "Admin"): registered by ../plugin.ts.

/** GET /api/admin/dashboard?weeks= (1-52, default 12). */
export async function dashboardRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  app.get(API.adminDashboard.path, { preHandler: requireAdmin }, async (req) => {
    const { weeks } = parseBody(adminDashboardQuery, req.query);
    return dashboardFigures(ctx.db, weeks, ctx.now());
  });
  methodNotAllowed(app, API.adminDashboard.path, ['GET']);
}
