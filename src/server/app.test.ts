import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from './testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });
});

describe('security headers (docs/security.md 17)', () => {
  it('sends a CSP, nosniff, a referrer policy and COOP', async () => {
    const res = await t.app.inject('/healthz');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    // The older header says the same as the CSP: no framing at all, not even by the shop itself.
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS when served over HTTPS', async () => {
    const https = await buildTestApp({ PUBLIC_URL: 'https://shop.example.com' });
    try {
      const res = await https.app.inject('/healthz');
      expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    } finally {
      await https.close();
    }
  });
});

describe('origin check (docs/security.md 15)', () => {
  it('refuses a state change from another origin or a cross-site fetch with 403', async () => {
    const evil = await t.app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(evil.statusCode).toBe(403);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('lets the shop origin through', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No such endpoint: POST /api/anything' });
  });
});

describe('client routes without a built client', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('error');
  });
});

describe('bad input never reaches the database as a 500 (docs/security.md 18, 22)', () => {
  it('refuses a NUL character in a JSON string with a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/send_contact_email.php',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'a\u0000b', email: 'a@example.com', message: 'hi' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request contains a character that is not allowed.' });
  });

  it('logs a failed query without its parameters', async () => {
    const { serializeError } = await import('./logger.ts');
    const err = new Error('Failed query: insert into "users" values ($1)\nparams: secret-hash', {
      cause: new Error('boom'),
    });
    const logged = JSON.stringify(serializeError(err));
    expect(logged).toContain('Failed query');
    expect(logged).not.toContain('secret-hash');
  });
});
