import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { clientBucket } from './client-key.ts';

// Small HTTP helpers shared by every feature's routes: body parsing with readable messages, 405 for a
// wrong method, and per-route rate limits.

/**
 * Validates a JSON body: a missing or empty required field gives `required.message`, any other problem the
 * first issue's own message (each schema here words its messages as sentences). Throws a 400 HttpError.
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  required?: { fields: readonly string[]; message: string },
): z.infer<S> {
  const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  if (required) {
    const record = input as Record<string, unknown>;
    const missing = required.fields.some((f) => typeof record[f] !== 'string' || record[f].trim() === '');
    if (missing) throw new HttpError(400, required.message);
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new HttpError(400, parsed.error.issues[0]?.message ?? 'The request is not valid.');
  return parsed.data;
}

/** Validates a JSON body with its route's schema and required fields from the shared API table. */
export function parseRouteBody<S extends z.ZodType>(
  route: { body: S; required?: { fields: readonly string[]; message: string } | undefined },
  body: unknown,
): z.infer<S> {
  return parseBody(route.body, body, route.required);
}

const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Answers every method but `allowed` on `url` with 405 and an Allow header, instead of Fastify's 404
 * (docs/security.md 16: a state change by GET is refused, and says so). GET implies HEAD.
 */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: HTTPMethods[]): void {
  const allow = new Set<string>(allowed);
  if (allow.has('GET')) allow.add('HEAD');
  const others = ALL_METHODS.filter((m) => !allow.has(m));
  const handler = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', [...allow].join(', '))
      .send({ error: 'Method not allowed.' });
  for (const m of others) refusals.add(`${m} ${url}`);
  app.route({ method: others, url, exposeHeadRoute: false, handler });
}

const refusals = new Set<string>();

/** Whether `method url` is only methodNotAllowed's 405 (the route table's contract test asks). */
export function refusesMethod(method: string, url: string): boolean {
  return refusals.has(`${method} ${url}`);
}

/** One limit: `max` requests per `windowMs` per client (IP, or IPv6 /64), scaled by RATE_LIMIT_SCALE. */
export type LimitRule = { max: number; windowMs: number; message: string };

/** Scales a base limit by RATE_LIMIT_SCALE, never below one. */
export function scaled(config: Pick<Config, 'rateLimitScale'>, max: number): number {
  return Math.max(1, Math.round(max * config.rateLimitScale));
}

/**
 * The `config.rateLimit` of a route (@fastify/rate-limit, registered with `global: false`): keyed by the
 * client's bucket (`req.ip`, which honours X-Forwarded-For only with TRUST_PROXY; IPv6 per /64). The 429
 * carries Retry-After and `{ error: rule.message }`. The counters are in process, or in Redis with
 * REDIS_URL (see rate-limit-store.ts).
 */
export function rateLimit(config: Pick<Config, 'rateLimitScale'>, rule: LimitRule) {
  return {
    max: scaled(config, rule.max),
    timeWindow: rule.windowMs,
    keyGenerator: (req: FastifyRequest) => clientBucket(req.ip),
    errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
      new HttpError(429, rule.message, { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) }),
  };
}

/** Marks a response as private and never cached (session answers, account pages). */
export const NO_STORE = 'no-store';
