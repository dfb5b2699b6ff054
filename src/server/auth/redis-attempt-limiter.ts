import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LogThrottle } from '../logger.ts';
import type { AttemptLimiter } from './login-throttle.ts';

// The failed-login throttle in Redis (REDIS_URL), shared by every app instance: one sorted set of
// attempt times per key, checked and counted by one script, so simultaneous guesses on several
// instances cannot all slip through. Like the rate limits, it fails open while Redis is away.

const TAKE = `
local key, now, window, max, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
if n >= max then
  local oldest = redis.call('ZRANGE', key, n - max, n - max, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 0
`;

const FORGIVE = `
local found = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)
if found[1] then redis.call('ZREM', KEYS[1], found[1]) end
return 0
`;

type Scripted = Redis & {
  attemptTake(key: string, now: number, windowMs: number, max: number, member: string): Promise<number>;
  attemptForgive(key: string, now: number): Promise<number>;
};

export class RedisAttemptLimiter implements AttemptLimiter {
  private readonly redis: Scripted;
  private readonly faults = new LogThrottle();

  constructor(
    redis: Redis,
    private readonly opts: { max: number; windowMs: number; prefix: string; log: FastifyBaseLogger },
  ) {
    if (!('attemptTake' in redis)) {
      redis.defineCommand('attemptTake', { numberOfKeys: 1, lua: TAKE });
      redis.defineCommand('attemptForgive', { numberOfKeys: 1, lua: FORGIVE });
    }
    this.redis = redis as Scripted;
  }

  async take(key: string, now: Date): Promise<number> {
    const at = now.getTime();
    // Unique members, across instances too: two attempts in the same millisecond are two attempts.
    const member = `${at}:${randomUUID()}`;
    return this.failOpen(() =>
      this.redis.attemptTake(this.opts.prefix + key, at, this.opts.windowMs, this.opts.max, member),
    );
  }

  async forgive(key: string, now: Date): Promise<void> {
    await this.failOpen(() => this.redis.attemptForgive(this.opts.prefix + key, now.getTime()));
  }

  async reset(key: string): Promise<void> {
    await this.failOpen(() => this.redis.del(this.opts.prefix + key));
  }

  private async failOpen(command: () => Promise<number>): Promise<number> {
    try {
      return Number(await command());
    } catch (err) {
      const occurrences = this.faults.take();
      if (occurrences > 0) {
        this.opts.log.error(
          { err: { message: (err as Error).message }, occurrences },
          'login throttle store (Redis) unavailable: failed logins are not counted',
        );
      }
      return 0;
    }
  }
}
