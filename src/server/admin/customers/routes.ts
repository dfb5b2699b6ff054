import type { FastifyInstance } from 'fastify';
import type { AdminPluginOptions } from '../plugin.ts';

// The back office's customers (issue #25): registered by ../plugin.ts.

export async function customerRoutes(_app: FastifyInstance, _opts: AdminPluginOptions) {}
