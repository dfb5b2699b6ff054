import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson } from '../auth/testing.ts';
import { needsRedis, TEST_REDIS_URL as REDIS_URL } from '../testing/redis.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// Rate limits shared through Redis (REDIS_URL) by several app instances, and what happens when Redis
// is away.

const CONTACT = '/api/send_contact_email.php';
const body = { name: 'Flood', email: 'flood@example.com', message: 'again' };
const TOO_MANY = 'Too many requests. Please wait before submitting again.';

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((t) => t.close()));
});

async function app(env: Record<string, string>, options: Parameters<typeof buildTestApp>[1] = {}) {
  const t = await buildTestApp(env, options);
  apps.push(t);
  return t;
}

describe('rate limits in Redis (REDIS_URL)', needsRedis, () => {
  it('are shared by two app instances: 5 contact messages per client in all, the 6th is a 429 on either', async () => {
    const nameSpace = `test:${randomUUID()}:`;
    const a = await app({ REDIS_URL }, { rateLimitNamespace: nameSpace });
    const b = await app({ REDIS_URL }, { rateLimitNamespace: nameSpace });
    const from = { remoteAddress: '10.20.0.1' };
    for (const t of [a, b, a, b, a]) {
      expect((await postJson(t, CONTACT, body, {}, from)).statusCode).toBe(200);
    }
    for (const t of [b, a]) {
      const res = await postJson(t, CONTACT, body, {}, from);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: TOO_MANY });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another client is counted apart.
    expect((await postJson(b, CONTACT, body, {}, { remoteAddress: '10.20.0.2' })).statusCode).toBe(200);
  });
});

describe('rate limits when Redis is away', () => {
  it('let requests through and say so in the log, once', async () => {
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    // Nothing listens on port 1.
    const t = await app({ REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'error' }, { logStream: log });
    for (let i = 0; i < 7; i++) {
      expect((await postJson(t, CONTACT, body, {}, { remoteAddress: '10.30.0.1' })).statusCode).toBe(200);
    }
    const errors = lines.filter((l) => l.includes('rate-limit store (Redis) unavailable'));
    expect(errors).toHaveLength(1);
  });
});

/**
 * A "Redis" that answers the connection's ready check and then never another command: the worst
 * outage, a server that holds sockets open but has stopped serving.
 */
async function hungRedis(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    // The handshake (CLIENT SETINFO ..., then INFO) is answered; nothing after it ever is.
    let answered = false;
    socket.on('data', (chunk) => {
      if (answered) return;
      const text = chunk.toString().toUpperCase();
      for (const _ of text.matchAll(/SETINFO/g)) socket.write('+OK\r\n');
      if (!text.includes('$4\r\nINFO\r\n')) return;
      answered = true;
      const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
      socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('rate limits when Redis hangs', () => {
  it('let each request through once a command has waited its half second, instead of holding it', async () => {
    const redis = await hungRedis();
    try {
      const t = await app({ REDIS_URL: redis.url, LOG_LEVEL: 'fatal' });
      for (let i = 0; i < 3; i++) {
        const res = await postJson(t, CONTACT, body, {}, { remoteAddress: '10.40.0.1' });
        expect(res.statusCode).toBe(200);
      }
      // A failed login still gets its plain answer too (the throttle's script times out the same way).
      const login = await postJson(
        t,
        '/api/login.php',
        { username: 'nobody', password: 'wrong-password' },
        {},
        { remoteAddress: '10.40.0.1' },
      );
      expect(login.statusCode).toBe(401);
    } finally {
      await redis.close();
    }
  }, 20_000);
});

describe('rate limits per client bucket (in process)', () => {
  it('count every address of one IPv6 /64 together', async () => {
    const t = await app({});
    for (let i = 1; i <= 5; i++) {
      const res = await postJson(t, CONTACT, body, {}, { remoteAddress: `2001:db8:7:1::${i}` });
      expect(res.statusCode).toBe(200);
    }
    const sameNetwork = await postJson(t, CONTACT, body, {}, { remoteAddress: '2001:db8:7:1:ffff::9' });
    expect(sameNetwork.statusCode).toBe(429);
    const otherNetwork = await postJson(t, CONTACT, body, {}, { remoteAddress: '2001:db8:7:2::1' });
    expect(otherNetwork.statusCode).toBe(200);
  });
});
