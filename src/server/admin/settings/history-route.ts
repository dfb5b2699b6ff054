import type { FastifyInstance } from 'fastify';
import { adminSettingsHistoryQuery } from '../../../shared/admin-settings.ts';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed, parseBody } from '../../http/route-helpers.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { listSettingsHistory } from './list-history.ts';

/** GET /api/admin/settings/history?page=&section=: { changes, total, page, pageSize }, newest first. */
export async function historyRoute(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const route = API.adminSettingsHistory;
  app.get(route.path, { preHandler: requireAdmin }, async (req) =>
    listSettingsHistory(ctx.db, parseBody(adminSettingsHistoryQuery, req.query)),
  );
  methodNotAllowed(app, route.path, ['GET']);
}
