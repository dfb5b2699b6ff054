import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { unavailableCause } from '../db/client.ts';

/** A known, user-facing failure: its message is shown to the client as it is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The answer while the database cannot be reached (restarting, failing over): 503, never SQL or a stack. */
export const DATABASE_UNAVAILABLE = 'The shop is briefly unavailable. Please try again in a moment.';

const CLIENT_MESSAGES: Record<number, string> = {
  400: 'The request is not valid.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'The request is too large.',
  415: 'Unsupported content type: send JSON.',
  429: 'Too many requests. Please wait before trying again.',
};

/** The first zod issue as one readable sentence, e.g. "email: Invalid email address". */
export function describeZodError(err: ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'The request is not valid.';
  const where = issue.path.join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/**
 * Fastify's `frameworkErrors`: what fails before a route is found (a URL that does not decode, a parameter
 * too long) gets the shop's `{ error }` shape and an info line, like any other bad request, not Fastify's
 * own error object. Given to Fastify() in app.ts, since it acts before any plugin's hooks.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status = err.code === 'FST_ERR_BAD_URL' ? 400 : err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 500;
  if (status >= 500) {
    req.log.error({ err }, 'request failed before routing');
    void reply.code(500).send({ error: 'Something went wrong on our side. Please try again later.' });
    return;
  }
  req.log.info({ code: err.code }, 'malformed request refused');
  void reply
    .code(status)
    .header('x-content-type-options', 'nosniff')
    .header('x-request-id', req.id)
    .send({
      error: status === 400 ? 'The address of the request is not valid.' : 'The address is too long.',
    });
}

/** One error handler: 4xx say what was wrong, 5xx say nothing more than that and are logged with the request id. */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError, req, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send({ error: err.message });
    }
    if (err instanceof ZodError) {
      return reply.code(400).send({ error: describeZodError(err) });
    }
    // A connection failed: the database restarting, or (the same errno) another backend's network; a 503 to
    // retry fits both. Not a client that went away mid-body (ECONNRESET too, but Fastify's 400): that is
    // the client's doing, answered below like any bad request.
    const cause = (err as { statusCode?: number }).statusCode === undefined ? unavailableCause(err) : null;
    if (cause && !req.raw.aborted) {
      // The matching error itself (pg's or the socket's): a wrapper's query text and parameters stay out.
      req.log.error(
        { code: (cause as { code?: unknown }).code, reason: cause.message },
        'database or network unavailable',
      );
      return reply.code(503).header('retry-after', '5').send({ error: DATABASE_UNAVAILABLE });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.code(500).send({ error: 'Something went wrong on our side. Please try again later.' });
    }
    if (status === 429) return reply.code(429).send({ error: err.message || CLIENT_MESSAGES[429] });
    // Fastify's own 4xx (bad JSON, body too large, media type): a generic text, never parser internals.
    const message =
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty.' : CLIENT_MESSAGES[status];
    return reply.code(status).send({ error: message ?? 'The request is not valid.' });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: `No such endpoint: ${req.method} ${req.url.split('?')[0]}` });
  });
});
