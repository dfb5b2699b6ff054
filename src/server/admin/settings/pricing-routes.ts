import type { FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import { requireAdmin } from '../../auth/session-plugin.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';
import { pricingValuesSchema, savePricingValues } from '../../pricing/settings-repository.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { previewPricing } from './preview.ts';
import { loadPricingPayload, pricingPayload } from './section-payloads.ts';
import { parseSettings } from './validate.ts';

/**
 * GET /api/admin/settings/pricing: { values, defaults, overridden }. PUT { values } (every constant): saved
 * with its history, answers as GET. POST .../preview { values, sample }: before and after, nothing saved.
 */
export async function pricingRoutes(app: FastifyInstance, { ctx }: AdminPluginOptions) {
  const get = API.adminSettingsPricing;
  const put = API.adminSettingsPricingSave;
  app.get(get.path, { preHandler: requireAdmin }, async () => loadPricingPayload(ctx.db));
  app.put(put.path, { preHandler: requireAdmin }, async (req) => {
    const { values } = parseSettings('pricing', put.body, req.body);
    const checked = parseSettings('pricing', pricingValuesSchema, values);
    const saved = await savePricingValues(ctx.db, checked, { userId: req.user!.id, now: ctx.now() });
    return pricingPayload(saved);
  });
  methodNotAllowed(app, get.path, ['GET', 'PUT']);

  const preview = API.adminSettingsPricingPreview;
  app.post(preview.path, { preHandler: requireAdmin }, async (req) => {
    const body = parseSettings('pricing', preview.body, req.body);
    const values = parseSettings('pricing', pricingValuesSchema, body.values);
    return previewPricing(ctx.db, values, body.sample);
  });
  methodNotAllowed(app, preview.path, ['POST']);
}
