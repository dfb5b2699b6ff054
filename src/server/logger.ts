import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

const SECRET_QUERY = /([?&](?:token|session_id|password)=)[^&]*/gi;

/** Strips secrets from a URL before it is logged (verification links carry their token in the query). */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
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
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
    },
  };
}
