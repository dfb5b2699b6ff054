import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminPlugin } from './admin/plugin.ts';
import { authRoutes } from './auth/routes.ts';
import { sessionPlugin } from './auth/session-plugin.ts';
import { cartRoutes } from './cart/routes.ts';
import type { FulfilDeps } from './checkout/fulfil.ts';
import type { PaymentProvider } from './checkout/payment-provider.ts';
import { openPaymentProvider } from './checkout/providers/open-provider.ts';
import { checkoutPlugin, paymentDeps } from './checkout/routes.ts';
import type { Config } from './config.ts';
import { contactRoutes } from './contact/routes.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { healthRoutes } from './health/routes.ts';
import { guardConnections } from './http/connection-guard.ts';
import { openRateLimitStore } from './http/rate-limit-store.ts';
import { OutboxWorker } from './jobs/outbox-worker.ts';
import { loggerOptions } from './logger.ts';
import { createMailer } from './mail/mailer.ts';
import { claimRequestModels } from './models/claim.ts';
import { clearVisitorCookie } from './models/owner.ts';
import { modelsPlugin } from './models/plugin.ts';
import { orderRoutes } from './orders/routes.ts';
import { bodyGuard } from './plugins/body-guard.ts';
import { clientStatic } from './plugins/client-static.ts';
import { errorHandler, frameworkErrors } from './plugins/error-handler.ts';
import { originCheck } from './plugins/origin-check.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { quoteRoute } from './pricing/quote-route.ts';
import { shopInfoRoute } from './shipping/routes.ts';

export type BuildAppOptions = {
  config: Config;
  database: Database;
  now?: () => Date;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Prefix of the rate-limit keys in Redis (tests give each app its own). */
  rateLimitNamespace?: string;
  /** The payment provider instead of the one the config picks (tests). */
  paymentProvider?: PaymentProvider;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment provider and what fulfilment and refunds need with it (tests reach it here). */
    payments: FulfilDeps;
  }
}

/** Composes the shop: third-party plugins first, then the shop's own features, then the client. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const ctx: AppContext = { config, database, db: database.db, now: options.now ?? (() => new Date()) };

  const logger = loggerOptions(config);
  const app = Fastify({
    logger:
      options.logStream && typeof logger === 'object' ? { ...logger, stream: options.logStream } : logger,
    // Trust exactly TRUST_PROXY hops of X-Forwarded-For, counted from our side.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxy,
    // No request may take longer than this to arrive (an upload included); connection-guard.ts sets the
    // tighter limits: headers in 10 s, a JSON body in 15 s, an upload at a minimum rate.
    requestTimeout: 10 * 60_000,
    // A client could otherwise pick the id its requests are logged under (and blend into, or forge,
    // someone else's trail): the header is taken only from our own reverse proxy (TRUST_PROXY > 0),
    // which sets it, and the id is answered in X-Request-Id for the customer to quote.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return config.trustProxy > 0 && typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming)
        ? incoming
        : randomUUID();
    },
    bodyLimit: 256 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL that does not decode: 400 in the shop's { error } shape, not Fastify's own.
    frameworkErrors,
  });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // Only JSON (and multipart for uploads) carries a body: text/plain is a classic CSRF vector (415).
  app.removeContentTypeParser('text/plain');
  guardConnections(app, {
    max: config.maxConnections,
    perAddress: config.maxConnectionsPerIp,
    uploadPaths: ['/api/uploads'],
  });

  await app.register(errorHandler);
  await app.register(securityHeaders, { https: config.secureCookies });
  await app.register(originCheck, { publicUrl: config.publicUrl });
  await app.register(bodyGuard);
  await app.register(cookie);
  const limits = openRateLimitStore(config.redisUrl, app.log, options.rateLimitNamespace);
  app.addHook('onReady', () => limits.ready());
  app.addHook('onClose', () => limits.close());
  await app.register(rateLimit, { global: false, ...limits.options });

  // Mail is queued in the outbox table and sent by this worker: polling, except in tests, which call
  // `app.outbox.drain()` to deliver on demand.
  const outbox = new OutboxWorker(createMailer(config, app.log));
  ctx.outbox = outbox;
  app.decorate('outbox', outbox);
  app.addHook('onReady', async () => outbox.start(ctx, app.log, { poll: config.env !== 'test' }));
  // preClose: before any onClose hook (main.ts closes the database in one).
  app.addHook('preClose', () => outbox.stop());
  await app.register(sessionPlugin, { ctx });

  await app.register(healthRoutes, { ping: database.ping });
  await app.register(authRoutes, {
    ctx,
    redis: limits.redis,
    // What a visitor uploaded in this browser before logging in becomes the account's.
    onLogin: async (userId, req) => {
      await claimRequestModels(ctx.db, req, userId);
    },
    // The next person to log in on a shared browser does not inherit its earlier visitor's uploads.
    onLogout: (_req, reply) => clearVisitorCookie(reply, config.secureCookies),
  });
  await app.register(contactRoutes, { ctx });
  await app.register(modelsPlugin, { ctx });
  await app.register(quoteRoute, { ctx });
  await app.register(shopInfoRoute, { ctx });
  await app.register(orderRoutes, { ctx });
  await app.register(cartRoutes, { ctx });
  // One payment provider for the checkout and the back office's refunds.
  const payments = paymentDeps(ctx, options.paymentProvider ?? openPaymentProvider(ctx), app.log);
  app.decorate('payments', payments);
  await app.register(checkoutPlugin, { deps: payments });
  await app.register(adminPlugin, { ctx, payments });

  await app.register(clientStatic, { clientDir: config.clientDir });
  return app;
}
