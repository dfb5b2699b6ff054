import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { NO_STORE } from '../http/route-helpers.ts';
import type { RefundDeps } from '../orders/refunds.ts';
import { customerRoutes } from './customers/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { messageRoutes } from './messages/routes.ts';
import { csvRoute } from './orders/csv-route.ts';
import { flagRoute } from './orders/flag-route.ts';
import { itemRoutes } from './orders/item-routes.ts';
import { listRoutes } from './orders/list-route.ts';
import { noteRoute } from './orders/note-route.ts';
import { productionRoutes } from './orders/production-routes.ts';
import { refundRoute } from './orders/refund-route.ts';
import { statusRoute } from './orders/status-route.ts';
import { settingsRoutes } from './settings/routes.ts';

// The back office's API (docs/api.md "Admin"). Every route says `preHandler: requireAdmin` itself (401
// logged out, 403 and a warn line otherwise); the global origin check covers their state changes. Nothing an
// admin sees may be cached: every answer of this plugin, errors included, is `no-store`.

export type AdminPluginOptions = { ctx: AppContext; payments: RefundDeps };

export async function adminPlugin(app: FastifyInstance, opts: AdminPluginOptions) {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', NO_STORE);
  });
  await app.register(listRoutes, opts);
  await app.register(csvRoute, opts);
  await app.register(statusRoute, opts);
  await app.register(noteRoute, opts);
  await app.register(refundRoute, opts);
  await app.register(flagRoute, opts);
  await app.register(itemRoutes, opts);
  await app.register(productionRoutes, opts);
  await app.register(settingsRoutes, opts);
  await app.register(customerRoutes, opts);
  await app.register(messageRoutes, opts);
  await app.register(dashboardRoutes, opts);
}
