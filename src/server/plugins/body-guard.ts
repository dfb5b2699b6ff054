import { isUtf8 } from 'node:buffer';
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
 * fail with a 500. And a JSON body that is not UTF-8 is refused (400) instead of being read with
 * replacement characters and stored garbled (docs/security.md 18).
 */
export const bodyGuard = fp(async (app: FastifyInstance) => {
  // Fastify's own parser (prototype poisoning refused), given the bytes only once they decode.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(new HttpError(400, 'The request is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(req, bytes.toString('utf8'), done);
  });
  app.addHook('preValidation', async (req) => {
    if (hasNul(req.body) || hasNul(req.query)) {
      throw new HttpError(400, 'The request contains a character that is not allowed.');
    }
  });
});
