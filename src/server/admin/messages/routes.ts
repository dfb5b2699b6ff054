import type { FastifyInstance } from 'fastify';
import type { AdminPluginOptions } from '../plugin.ts';

// The back office's messages (issue #25): registered by ../plugin.ts.

export async function messageRoutes(_app: FastifyInstance, _opts: AdminPluginOptions) {}
