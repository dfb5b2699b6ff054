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
