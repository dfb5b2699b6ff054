import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureLog } from '../testing/log-capture.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

// The log's request id is the shop's own unless our reverse proxy set it: a client cannot choose the id
// its requests are logged under (SECURITY.md: log forging), and the id is answered for the customer to quote.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  const log = captureLog();
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    proxied = await buildTestApp({ LOG_LEVEL: 'info', TRUST_PROXY: '1' }, { logStream: log.stream });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });
  beforeEach(() => {
    log.lines.length = 0;
  });

  it("ignores a client's own X-Request-Id without a trusted proxy: a fresh id, logged and answered", async () => {
    const res = await direct.app.inject({ url: '/healthz', headers: { 'x-request-id': 'someone-elses-id' } });
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    expect(log.entries().some((e) => e.reqId === 'someone-elses-id')).toBe(false);
    expect(log.entries().some((e) => e.reqId === id)).toBe(true);
  });

  it('takes the id our reverse proxy set (TRUST_PROXY > 0), when it is a plain token', async () => {
    const res = await proxied.app.inject({ url: '/healthz', headers: { 'x-request-id': 'nginx-3f2a9c' } });
    expect(res.headers['x-request-id']).toBe('nginx-3f2a9c');
    expect(log.entries().some((e) => e.reqId === 'nginx-3f2a9c')).toBe(true);
    const odd = await proxied.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a"b\nc' } });
    expect(String(odd.headers['x-request-id'])).toMatch(UUID);
  });
});
