import type { FastifyError, FastifyInstance } from 'fastify';
import { API } from '../../../shared/api.ts';
import type { AdminPluginOptions } from '../plugin.ts';
import { historyRoute } from './history-route.ts';
import { pricingRoutes } from './pricing-routes.ts';
import { productionSettingsRoutes } from './production-routes.ts';
import { shippingRoutes } from './shipping-routes.ts';
import { shopSettingsRoutes } from './shop-routes.ts';
import { SettingsInputError } from './validate.ts';

// The back office's settings (issue #25, docs/api.md "Admin"): pricing (with its preview), shipping methods,
// production capacity, the shop's build volume and upload retention, and the history of changes. Registered by ../plugin.ts; every route says
// `preHandler: requireAdmin` itself. A refused value answers 400 `{ error, field }` (validate.ts); every other
// error goes on to the app's one error handler.

export const SETTINGS_ROUTES = [
  API.adminSettingsPricing,
  API.adminSettingsPricingSave,
  API.adminSettingsPricingPreview,
  API.adminSettingsShipping,
  API.adminSettingsShippingSave,
  API.adminSettingsProduction,
  API.adminSettingsProductionSave,
  API.adminSettingsShop,
  API.adminSettingsShopSave,
  API.adminSettingsHistory,
] as const;

export async function settingsRoutes(app: FastifyInstance, opts: AdminPluginOptions) {
  app.setErrorHandler((err: FastifyError, _req, reply) => {
    if (err instanceof SettingsInputError)
      return reply.code(400).send({ error: err.message, field: err.field });
    throw err;
  });
  await app.register(pricingRoutes, opts);
  await app.register(shippingRoutes, opts);
  await app.register(productionSettingsRoutes, opts);
  await app.register(shopSettingsRoutes, opts);
  await app.register(historyRoute, opts);
}
