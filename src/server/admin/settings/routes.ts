import type { FastifyInstance } from 'fastify';
import type { AdminPluginOptions } from '../plugin.ts';

// The back office's settings (issue #25): registered by ../plugin.ts.

export async function settingsRoutes(_app: FastifyInstance, _opts: AdminPluginOptions) {}
