import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { models } from '../db/schema.ts';
import { filesIn } from '../models/testing.ts';
import { captureLog, LEVEL } from '../testing/log-capture.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';

// Requests that cannot even be parsed are the client's error: a 400 in the shop's { error } shape, an info
// line in the log, never a 500 with a stack at error level (issue 15.6).

let t: TestApp;
const log = captureLog();
beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
});
afterAll(() => t.close());
beforeEach(() => {
  log.lines.length = 0;
});

function expectOnlyInfo(reqId: string) {
  const mine = log.entries().filter((e) => e.reqId === reqId);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.filter((e) => e.level >= LEVEL.warn)).toEqual([]);
  expect(log.lines.join('\n')).not.toContain('"stack"');
}

describe('malformed requests (issue 15.6)', () => {
  it('a multipart upload without a boundary: 400 { error }, info log, nothing kept', async () => {
    for (const contentType of ['multipart/form-data', 'multipart/form-data; charset=utf-8']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { 'content-type': contentType, origin: TEST_ORIGIN },
        payload: 'solid x\nendsolid x\n',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'The upload is not a valid multipart/form-data request.' });
      expectOnlyInfo(String(res.headers['x-request-id']));
      expect(log.entries().some((e) => e.msg === 'malformed multipart request refused')).toBe(true);
    }
    expect(await t.database.db.select().from(models)).toEqual([]);
    expect(filesIn(path.join(t.dataDir, 'files'))).toEqual([]);
    expect(filesIn(path.join(t.dataDir, 'tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(t.dataDir, 'tmp'))).toBe(false);
  });

  it('a URL that does not decode: 400 { error } with the security headers it can carry, info log', async () => {
    for (const url of ['/api/models/%E0%A4%A', '/%', '/api/models/%zz/file']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ error: 'The address of the request is not valid.' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expectOnlyInfo(String(res.headers['x-request-id']));
      expect(log.entries().some((e) => e.msg === 'malformed request refused' && e.level === LEVEL.info)).toBe(
        true,
      );
    }
    // Nothing else changed: the shop still answers.
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  });
});

describe('a client that goes away mid-body', () => {
  it('is not logged as the database or the network being down (no error line)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as import('node:net').AddressInfo).port;
    const net = await import('node:net');
    await new Promise<void>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => {
        socket.write(
          `POST /api/login.php HTTP/1.1\r\nHost: x\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":`,
        );
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    // Whatever the server logs for it, it is not an error nor an outage.
    await new Promise((r) => setTimeout(r, 300));
    expect(log.lines.join('\n')).not.toContain('database or network unavailable');
    expect(log.entries().filter((e) => e.level >= LEVEL.error)).toEqual([]);
  });
});
