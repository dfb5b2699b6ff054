import type { FastifyInstance } from 'fastify';
import type { AdminPluginOptions } from '../plugin.ts';

// The back office's dashboard (issue #25): registered by ../plugin.ts.

export async function dashboardRoutes(_app: FastifyInstance, _opts: AdminPluginOptions) {}
