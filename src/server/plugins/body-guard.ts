import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './error-handler.ts';

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((v) => hasNul(v, depth + 1));
}

/**
 * PostgreSQL cannot store a NUL character in text: refuse it up front with a 400 rather than let a query
 * fail with a 500.
 */
export const bodyGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (req) => {
    if (hasNul(req.body) || hasNul(req.query)) {
      throw new HttpError(400, 'The request contains a character that is not allowed.');
    }
  });
});
