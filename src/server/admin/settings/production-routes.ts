import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';
import { productionValuesSchema, saveProductionValues } from '../../shipping/settings-repository.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { loadProductionPayload, productionPayload } from './section-payloads.ts';
import { parseSettings } from './validate.ts';

/**
 * GET /api/admin/settings/production: { values, defaults, overridden, preview } (the ship-by day of an order
 * paid now). PUT { values } (every key): saved with its history, answers as GET with the new ship-by day.
 */
export async function productionSettingsRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const get = API.adminSettingsProduction;
  const put = API.adminSettingsProductionSave;
  app.get(get.path, { preHandler: requireAdmin }, async () => loadProductionPayload(ctx.db, ctx.now()));
  app.put(put.path, { preHandler: requireAdmin }, async (req) => {
    const { values } = parseSettings('production', put.body, req.body);
    const checked = parseSettings('production', productionValuesSchema, values);
    const now = ctx.now();
    const saved = await saveProductionValues(ctx.db, checked, { userId: req.user!.id, now });
    return productionPayload(ctx.db, saved, now);
  });
  methodNotAllowed(app, get.path, ['GET', 'PUT']);
}
