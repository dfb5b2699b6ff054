import type { FastifyInstance } from 'fastify';

/** /healthz: the process is up. /readyz: the database answers too. */
export async function healthRoutes(app: FastifyInstance, opts: { ping: () => Promise<void> }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    try {
      await opts.ping();
      return { status: 'ready' };
    } catch (err) {
      req.log.error({ err }, 'database is not answering');
      return reply.code(503).send({ status: 'unavailable', error: 'The database is not answering.' });
    }
  });
}
