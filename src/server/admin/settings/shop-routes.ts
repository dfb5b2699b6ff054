import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';
import { saveShopValues, shopValuesSchema } from '../../settings/shop-settings.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { loadShopPayload, shopPayload } from './section-payloads.ts';
import { parseSettings } from './validate.ts';

/**
 * GET /api/admin/settings/shop: { values, defaults, overridden } (the build volume and the upload retention;
 * the defaults are the environment's). PUT { values } (every key): saved with its history, answers as GET.
 */
export async function shopSettingsRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const get = API.adminSettingsShop;
  const put = API.adminSettingsShopSave;
  app.get(get.path, { preHandler: requireAdmin }, async () => loadShopPayload(ctx.db, ctx.config));
  app.put(put.path, { preHandler: requireAdmin }, async (req) => {
    const { values } = parseSettings('shop', put.body, req.body);
    const checked = parseSettings('shop', shopValuesSchema, values);
    const saved = await saveShopValues(ctx.db, checked, ctx.config, { userId: req.user!.id, now: ctx.now() });
    return shopPayload(saved, ctx.config);
  });
  methodNotAllowed(app, get.path, ['GET', 'PUT']);
}
