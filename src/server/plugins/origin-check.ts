import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths called by other servers (payment webhooks) carry no browser Origin and are signed instead. */
const EXEMPT_PREFIXES = ['/api/payments/'];

function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * CSRF defence for cookie sessions: a state-changing request whose Origin is neither the shop's public
 * origin nor the host it was sent to, or which the browser marks cross-site, is refused with 403.
 */
export const originCheck = fp(async (app: FastifyInstance, opts: { publicUrl: string }) => {
  const publicOrigin = new URL(opts.publicUrl).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method)) return;
    if (EXEMPT_PREFIXES.some((p) => req.url.startsWith(p))) return;
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const crossSite = site === 'cross-site' || site === 'same-site';
    const foreignOrigin = origin !== undefined && origin !== publicOrigin && origin !== requestOrigin(req);
    if (crossSite || foreignOrigin) {
      req.log.warn({ origin, site }, 'refused a cross-origin state change');
      return reply.code(403).send({ error: 'Cross-site request refused.' });
    }
  });
});
