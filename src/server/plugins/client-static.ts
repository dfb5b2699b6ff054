import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built client: hashed assets with a year's immutable cache, other files briefly cached,
 * and index.html (never cached) for every client route so the router can take over.
 */
export async function clientStatic(app: FastifyInstance, opts: { clientDir: string }) {
  const indexPath = path.join(opts.clientDir, 'index.html');
  if (!fs.existsSync(indexPath)) {
    app.log.warn(`no built client in ${opts.clientDir}: run "npm run build"; only /api is served`);
    return;
  }
  const indexHtml = fs.readFileSync(indexPath);
  await app.register(fastifyStatic, {
    root: opts.clientDir,
    index: false,
    wildcard: false,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  const sendIndex = (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  app.get('/', sendIndex);
  app.get('/*', (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    // Unknown API paths and missing files keep a real 404; everything else is a client route.
    if (url.startsWith('/api/') || /\.[a-z0-9]+$/i.test(url)) {
      return reply.code(404).send({ error: 'Not found.' });
    }
    return sendIndex(req, reply);
  });
}
