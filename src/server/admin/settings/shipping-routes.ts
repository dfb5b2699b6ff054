import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';
import { saveShippingSettings } from '../../shipping/settings-repository.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { loadShippingPayload } from './section-payloads.ts';
import { parseSettings } from './validate.ts';

/**
 * GET /api/admin/settings/shipping: { values, defaults, overridden } (per country). PUT { values } (both
 * countries' methods): saved with its history, answers as GET.
 */
export async function shippingRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const get = API.adminSettingsShipping;
  const put = API.adminSettingsShippingSave;
  app.get(get.path, { preHandler: requireAdmin }, async () => loadShippingPayload(ctx.db));
  app.put(put.path, { preHandler: requireAdmin }, async (req) => {
    const { values } = parseSettings('shipping', put.body, req.body);
    await saveShippingSettings(ctx.db, values, { userId: req.user!.id, now: ctx.now() });
    return loadShippingPayload(ctx.db);
  });
  methodNotAllowed(app, get.path, ['GET', 'PUT']);
}
