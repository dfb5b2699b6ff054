import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { LogThrottle } from '../logger.ts';

// Where the per-route rate-limit counters live (the README's design notes): in the process by default, in Redis
// when REDIS_URL is set, so that several app instances behind one load balancer share one count.
//
// A Redis outage must not take the shop down with it: a command fails fast (no offline queue, one
// retry) and the request is let through (`skipOnError`), with an error in the log at most once a minute.
// Limits are a brake on abuse, not a lock: the shop stays open while Redis is away.

export type RateLimitStore = {
  /** Options for @fastify/rate-limit's registration. */
  options: { redis?: Redis; nameSpace?: string; skipOnError?: boolean };
  /** The Redis connection and key prefix for the shop's other counters (the failed-login throttle). */
  redis?: { client: Redis; prefix: string };
  /** Waits (a few seconds at most) for the first connection, so the first requests are counted. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

const CONNECT_WAIT_MS = 3000;

/** How long a request waits on Redis at most before it is let through uncounted. */
export const COMMAND_TIMEOUT_MS = 500;

export function openRateLimitStore(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
  nameSpace = 'printshop:rate:',
): RateLimitStore {
  if (!redisUrl) return { options: {}, ready: async () => {}, close: async () => {} };
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A Redis that accepts connections but never answers must not hold requests: a command gives up
    // after half a second, and a dead peer is noticed by TCP keep-alive.
    commandTimeout: COMMAND_TIMEOUT_MS,
    keepAlive: 10_000,
  });
  const faults = new LogThrottle();
  redis.on('error', (err: Error) => {
    const occurrences = faults.take();
    if (occurrences === 0) return;
    log.error(
      { err: { message: err.message }, occurrences },
      'rate-limit store (Redis) unavailable: limits are not enforced',
    );
  });
  redis.on('ready', () => {
    if (faults.reported) log.info('rate-limit store (Redis) is back');
    faults.reset();
  });
  return {
    options: { redis, nameSpace, skipOnError: true },
    redis: { client: redis, prefix: `${nameSpace}login:` },
    ready: () =>
      new Promise<void>((resolve) => {
        if (redis.status === 'ready') return resolve();
        const timer = setTimeout(done, CONNECT_WAIT_MS);
        function done() {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        }
        redis.once('ready', done);
      }),
    close: async () => {
      redis.disconnect();
    },
  };
}
