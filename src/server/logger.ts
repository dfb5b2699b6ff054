import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

const SECRET_QUERY = /([?&](?:token|session_id|password)=)[^&]*/gi;

/** Strips secrets from a URL before it is logged (verification links carry their token in the query). */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/** A failed query's message carries its parameters (hashes, tokens, mail bodies): keep only the SQL text. */
function scrub(text: string | undefined): string | undefined {
  return text?.split('\nparams:')[0];
}

type LoggedError = Error & { code?: unknown; statusCode?: unknown };

export function serializeError(err: LoggedError): {
  type: string;
  message: string;
  stack: string;
  [k: string]: unknown;
} {
  const cause = err.cause instanceof Error ? (err.cause as LoggedError) : undefined;
  return {
    type: err.constructor?.name ?? 'Error',
    message: scrub(err.message) ?? '',
    stack: scrub(err.stack) ?? '',
    code: err.code,
    statusCode: err.statusCode,
    ...(cause
      ? { cause: { type: cause.constructor?.name, message: scrub(cause.message), code: cause.code } }
      : {}),
  };
}

/** pino options: request ids, no cookies, tokens or passwords in any line. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.confirmPassword',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: serializeError,
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
    },
  };
}

/**
 * One line a minute at most for a fault that repeats (a store that is away, a disk that is full): a flood
 * of requests must not become a flood of log lines.
 */
export class LogThrottle {
  private lastAt = -Infinity;
  private held = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly everyMs = 60_000,
  ) {}

  /** Counts one occurrence: how many to report now (this one and those held back), or 0 to stay quiet. */
  take(): number {
    this.held++;
    const now = this.now();
    if (now - this.lastAt < this.everyMs) return 0;
    this.lastAt = now;
    const occurrences = this.held;
    this.held = 0;
    return occurrences;
  }

  /** Whether anything was reported since the last reset (so that recovery is told once). */
  get reported(): boolean {
    return this.lastAt > -Infinity;
  }

  reset(): void {
    this.lastAt = -Infinity;
    this.held = 0;
  }
}
