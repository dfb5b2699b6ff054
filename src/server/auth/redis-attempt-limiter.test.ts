import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { needsRedis, TEST_REDIS_URL } from '../testing/redis.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { RedisAttemptLimiter } from './redis-attempt-limiter.ts';
import { createUser, postJson } from './testing.ts';

const clients: Redis[] = [];
const quiet = { error() {} } as unknown as FastifyBaseLogger;
afterAll(() => {
  for (const c of clients) c.disconnect();
});

function limiter(prefix: string, url = TEST_REDIS_URL) {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  clients.push(client);
  return {
    client,
    limiter: new RedisAttemptLimiter(client, {
      max: 5,
      windowMs: 60_000,
      prefix,
      log: quiet,
    }),
  };
}

describe('RedisAttemptLimiter', needsRedis, () => {
  it('allows 5 attempts a window, then says how long to wait; forgive and reset give attempts back', async () => {
    const { client, limiter: l } = limiter(`test:${randomUUID()}:`);
    await client.connect();
    const t0 = new Date('2026-11-21T10:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    for (let i = 0; i < 5; i++) expect(await l.take('user:1', at(i))).toBe(0);
    // The oldest attempt (second 0) leaves the window at second 60.
    expect(await l.take('user:1', at(10))).toBe(50_000);
    expect(await l.take('user:2', at(10))).toBe(0);
    await l.forgive('user:1', at(4));
    expect(await l.take('user:1', at(11))).toBe(0);
    expect(await l.take('user:1', at(12))).toBeGreaterThan(0);
    expect(await l.take('user:1', at(61))).toBe(0);
    await l.reset('user:1');
    for (let i = 0; i < 5; i++) expect(await l.take('user:1', at(62))).toBe(0);
  });

  it('is one count for several instances, exact under simultaneous attempts', async () => {
    const prefix = `test:${randomUUID()}:`;
    const a = limiter(prefix);
    const b = limiter(prefix);
    await Promise.all([a.client.connect(), b.client.connect()]);
    const now = new Date();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).limiter.take('user:7', now)),
    );
    expect(answers.filter((w) => w === 0)).toHaveLength(5);
  });

  it('backs the login route when REDIS_URL is set: 5 wrong passwords from one address, then 429', async () => {
    const t = await buildTestApp(
      { REDIS_URL: TEST_REDIS_URL },
      { rateLimitNamespace: `test:${randomUUID()}:` },
    );
    try {
      const { user } = await createUser(t.database.db);
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await postJson(
          t,
          '/api/login.php',
          { username: user.username, password: 'wrong!' },
          {},
          {
            remoteAddress: '10.40.0.1',
          },
        );
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('RedisAttemptLimiter without Redis', () => {
  it('lets attempts through (fails open) instead of breaking the login', async () => {
    const { limiter: l } = limiter('x:', 'redis://127.0.0.1:1');
    for (let i = 0; i < 7; i++) expect(await l.take('user:1', new Date())).toBe(0);
  });
});
