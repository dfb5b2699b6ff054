import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { healthRoutes } from './health/routes.ts';
import { loggerOptions } from './logger.ts';
import { clientStatic } from './plugins/client-static.ts';
import { errorHandler } from './plugins/error-handler.ts';
import { originCheck } from './plugins/origin-check.ts';
import { securityHeaders } from './plugins/security-headers.ts';

export type BuildAppOptions = {
  config: Config;
  database: Database;
  now?: () => Date;
};

/** Composes the shop: third-party plugins first, then the shop's own features, then the client. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const ctx: AppContext = { config, database, db: database.db, now: options.now ?? (() => new Date()) };

  const app = Fastify({
    logger: loggerOptions(config),
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 256 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  // Only JSON (and multipart for uploads) carries a body: text/plain is a classic CSRF vector (415).
  app.removeContentTypeParser('text/plain');

  await app.register(errorHandler);
  await app.register(securityHeaders, { https: config.secureCookies });
  await app.register(originCheck, { publicUrl: config.publicUrl });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });

  await app.register(healthRoutes, { ping: database.ping });
  void ctx;

  await app.register(clientStatic, { clientDir: config.clientDir });
  return app;
}
