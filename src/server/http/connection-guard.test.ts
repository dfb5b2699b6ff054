import http from 'node:http';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boxStl, multipartBody } from '../models/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { BUSY_MESSAGE, guardConnections, PRESSURE_KEEP_ALIVE_MS } from './connection-guard.ts';

// Idle and slow connections cannot take the shop offline (issue 15.2). Real sockets on loopback: the flood
// comes from 127.0.0.1, the customers from 127.0.0.2.

function connect(port: number, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the server closes the socket (or after `ms`, with false). */
function closedWithin(socket: net.Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.on('error', () => {});
    socket.resume();
  });
}

function request(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, localAddress: '127.0.0.2', agent: false, ...options },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('guardConnections on a small app', () => {
  let app: FastifyInstance;
  let port: number;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => lines.push(d.toString()));
    app = Fastify({ logger: { level: 'warn', stream } });
    guardConnections(app, {
      max: 1000,
      perAddress: 5,
      uploadPaths: ['/up'],
      jsonBodyDeadlineMs: 1000,
      uploadWindowMs: 1000,
    });
    app.addContentTypeParser('application/octet-stream', (_req, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, 'ok'));
    });
    app.post('/json', async () => ({ ok: true }));
    app.post('/up', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());
  afterEach(() => {
    lines.length = 0;
  });

  it('cuts a JSON body that does not arrive by its deadline, and says so once', async () => {
    const socket = await connect(port);
    socket.write(
      'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{',
    );
    expect(await closedWithin(socket, 5000)).toBe(true);
    expect(lines.join('')).toContain('cut a request whose body was too slow');
  });

  it('cuts an upload that trickles below the minimum rate, and lets a steady one through', async () => {
    const slow = await connect(port);
    slow.write(
      'POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n',
    );
    const trickle = setInterval(() => slow.writable && slow.write('x'), 200);
    expect(await closedWithin(slow, 6000)).toBe(true);
    clearInterval(trickle);
    const ok = await request(port, {
      path: '/up',
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(100_000),
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a client its sixth open connection, not another client', async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, () => connect(port)));
    const sixth = await connect(port);
    expect(await closedWithin(sixth, 2000)).toBe(true);
    expect(lines.join('')).toContain('one client holds too many connections');
    expect(
      (
        await request(port, {
          path: '/json',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{}'),
        })
      ).status,
    ).toBe(200);
    for (const s of sockets) s.destroy();
  });
});

/** A raw keep-alive socket from `localAddress` that has had one answer to GET `path` and stays open. */
async function keptAlive(port: number, localAddress: string, path = '/ping'): Promise<net.Socket> {
  const socket = await connect(port, localAddress);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
  return socket;
}

function get(port: number, path: string, localAddress: string) {
  return new Promise<{ status: number; body: string; connection: string | undefined; ms: number }>(
    (resolve, reject) => {
      const started = performance.now();
      const req = http.request({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            connection: res.headers.connection,
            ms: performance.now() - started,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

// Issue 28: 65 addresses x 64 idle keep-alive sockets filled the 4,096 connections, and health checks from
// elsewhere went unanswered for 98 s. The same at a small scale: 40 connections, 4 per address, 4 kept
// for health checks; the flood comes from 127.0.0.10 onwards.
describe('the total connection limit under many addresses', () => {
  let app: FastifyInstance;
  let port: number;
  const lines: string[] = [];
  let release: () => void = () => {};
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => lines.push(d.toString()));
    app = Fastify({ logger: { level: 'warn', stream } });
    guardConnections(app, { max: 40, perAddress: 4, reserve: 4, uploadPaths: [] });
    app.get('/ping', async () => ({ ok: true }));
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async () => ({ status: 'ready' }));
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/hold', async () => {
      await held;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    release();
    await app.close();
  });

  it('closes the longest-idle keep-alive sockets for newcomers, and keeps idle ones briefly under pressure', async () => {
    const normalKeepAlive = app.server.keepAliveTimeout;
    const flood: net.Socket[] = [];
    try {
      // 13 addresses x 4 = 52 idle keep-alive sockets against a limit of 40.
      for (let a = 10; a < 23; a++)
        for (let i = 0; i < 4; i++) flood.push(await keptAlive(port, `127.0.0.${a}`));
      expect(app.server.keepAliveTimeout).toBe(PRESSURE_KEEP_ALIVE_MS);
      await expect.poll(() => flood.filter((s) => !s.destroyed).length).toBeLessThanOrEqual(40);
      // The first ones in were closed, not the newest.
      expect(flood[0]!.destroyed).toBe(true);
      expect(flood.at(-1)!.destroyed).toBe(false);
      expect(lines.join('')).toContain('closed the longest-idle connections');

      const health = await get(port, '/healthz', '127.0.0.3');
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      const customer = await get(port, '/ping', '127.0.0.4');
      expect(customer.status).toBe(200);
    } finally {
      for (const s of flood) s.destroy();
    }
    // Calm again: idle keep-alive back to its usual length.
    await expect.poll(() => app.server.keepAliveTimeout).toBe(normalKeepAlive);
  });

  it('keeps room for /healthz and /readyz when every connection is busy; anything else there gets 503', async () => {
    const busy: net.Socket[] = [];
    const extra: net.Socket[] = [];
    try {
      for (let a = 30; a < 40; a++)
        for (let i = 0; i < 4; i++) {
          const s = await connect(port, `127.0.0.${a}`);
          s.on('error', () => {});
          s.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
          busy.push(s);
        }
      // 40 requests in flight: none can be closed to make room.
      await new Promise((r) => setTimeout(r, 200));
      const health = await get(port, '/healthz', '127.0.0.5');
      expect(health.status).toBe(200);
      const ready = await get(port, '/readyz', '127.0.0.5');
      expect(ready.status).toBe(200);
      const other = await get(port, '/ping', '127.0.0.6');
      expect(other.status).toBe(503);
      expect(JSON.parse(other.body)).toEqual({ error: BUSY_MESSAGE });
      expect(other.connection).toBe('close');
      expect(busy.every((s) => !s.destroyed)).toBe(true);
      // The reserve is small: 4 sockets that ask nothing fill it, and a fifth newcomer closes the one idle
      // the longest, never a busy one.
      for (const n of [7, 8, 9, 10, 11]) extra.push(await connect(port, `127.0.1.${n}`));
      expect(await closedWithin(extra[0]!, 2000)).toBe(true);
      expect(extra.slice(1).every((s) => !s.destroyed)).toBe(true);
      expect(busy.every((s) => !s.destroyed)).toBe(true);
    } finally {
      release();
      for (const s of [...busy, ...extra]) s.destroy();
    }
  });
});

describe('the shop under 2,000 slow sockets from one address', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  const upload = () => {
    const body = multipartBody([{ fileName: 'cube.stl', bytes: boxStl(20, 20, 20) }]);
    return request(port, {
      path: '/api/uploads',
      method: 'POST',
      headers: { 'content-type': body.contentType, origin: 'http://shop.test' },
      body: body.payload,
    });
  };

  it('answers /healthz and an upload from another address within a second', async () => {
    expect((await upload()).status).toBe(201); // the analysis thread is started
    const flood: net.Socket[] = [];
    const attempts = Array.from({ length: 2000 }, async () => {
      try {
        const s = await connect(port);
        s.on('error', () => {});
        flood.push(s);
        s.write(
          'POST /api/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{',
        );
      } catch {
        // Refused: fine.
      }
    });
    await Promise.all(attempts);
    try {
      // The cap leaves this client at most 64 of them (a loaded machine takes a while to see 1,936 closes).
      await expect
        .poll(() => flood.filter((s) => !s.destroyed).length, { timeout: 15_000 })
        .toBeLessThanOrEqual(64);
      const health = await request(port, { path: '/healthz' });
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      const uploaded = await upload();
      expect(uploaded.status).toBe(201);
      expect(uploaded.ms).toBeLessThan(1000);
    } finally {
      for (const s of flood) s.destroy();
    }
  }, 40_000);
});
