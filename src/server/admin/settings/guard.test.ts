import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../shared/api.ts';
import { DEFAULT_SHIPPING } from '../../../shared/shipping.ts';
import { createLoggedInUser } from '../../auth/testing.ts';
import { DEFAULT_PRICING } from '../../pricing/settings.ts';
import { DEFAULT_PRODUCTION } from '../../shipping/production-settings.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { SETTINGS_ROUTES } from './routes.ts';
import { settingsState } from './testing.ts';

// Every settings route refuses a caller who is logged out (401) or not an admin (403), and a change from
// another origin (403), with valid bodies that an admin's call would save: the settings row and the history
// stay as they were. The same calls by an admin work.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
let customer: Awaited<ReturnType<typeof createLoggedInUser>>;
beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'silent' });
  admin = await makeAdmin(t);
  customer = await createLoggedInUser(t);
});
afterAll(() => t.close());

const BODIES: Record<string, unknown> = {
  [API.adminSettingsPricingSave.path]: { values: { ...DEFAULT_PRICING, pricePerGramCents: 9 } },
  [API.adminSettingsPricingPreview.path]: { values: DEFAULT_PRICING, sample: 'cube-20' },
};
const bodyOf = (route: (typeof SETTINGS_ROUTES)[number]) => {
  if (route === API.adminSettingsShippingSave)
    return { values: { ...DEFAULT_SHIPPING, CA: [DEFAULT_SHIPPING.CA[0]] } };
  if (route === API.adminSettingsProductionSave) return { values: { ...DEFAULT_PRODUCTION, printers: 9 } };
  if (route === API.adminSettingsShopSave) {
    return { values: { buildVolumeMm: { x: 300, y: 300, z: 300 }, uploadRetentionHours: 48 } };
  }
  return route.method === 'GET' ? undefined : BODIES[route.path];
};

function call(route: (typeof SETTINGS_ROUTES)[number], headers: Record<string, string>) {
  const body = bodyOf(route);
  return t.app.inject({
    method: route.method,
    url: route.path,
    headers:
      body === undefined ? headers : { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

describe('the settings routes', () => {
  it('are all in the shared table', () => {
    const inTable = Object.values(API).filter((r) => r.path.startsWith('/api/admin/settings'));
    expect(inTable).toEqual([...SETTINGS_ROUTES]);
  });

  it('refuse a logged-out caller with 401 and a customer with 403, changing nothing', async () => {
    const before = await settingsState(t);
    for (const route of SETTINGS_ROUTES) {
      const name = `${route.method} ${route.path}`;
      const out = await call(route, {});
      expect(out.statusCode, name).toBe(401);
      expect(out.json(), name).toEqual({ error: 'Please log in first.' });
      expect(out.headers['cache-control'], name).toBe('no-store');
      const refused = await call(route, { cookie: customer.cookie });
      expect(refused.statusCode, name).toBe(403);
      expect(refused.json(), name).toEqual({ error: 'Admin access required.' });
    }
    expect(await settingsState(t)).toEqual(before);
  });

  it("refuse an admin's change from another origin, changing nothing", async () => {
    const before = await settingsState(t);
    for (const route of SETTINGS_ROUTES.filter((r) => r.method !== 'GET')) {
      const evil = await call(route, { cookie: admin.cookie, origin: 'https://evil.example' });
      expect(evil.statusCode, route.path).toBe(403);
      const crossSite = await call(route, { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' });
      expect(crossSite.statusCode, route.path).toBe(403);
    }
    expect(await settingsState(t)).toEqual(before);
  });

  it('answer a method a path does not take with 405 and an Allow header', async () => {
    for (const route of SETTINGS_ROUTES) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: route.path,
        headers: { cookie: admin.cookie, origin: TEST_ORIGIN },
      });
      expect(res.statusCode, route.path).toBe(405);
      expect(res.headers.allow, route.path).toContain(route.method);
    }
  });

  it('let an admin make every call; each save is in the history with who made it', async () => {
    for (const route of SETTINGS_ROUTES) {
      const res = await call(route, { cookie: admin.cookie });
      expect(res.statusCode, `${route.method} ${route.path}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const { history } = await settingsState(t);
    expect(history.map((h) => [h.section, h.key, h.changedBy])).toEqual([
      ['pricing', 'pricePerGramCents', admin.user.id],
      ['shipping', 'CA', admin.user.id],
      ['production', 'printers', admin.user.id],
      ['shop', 'buildVolumeMm.x', admin.user.id],
      ['shop', 'buildVolumeMm.y', admin.user.id],
      ['shop', 'buildVolumeMm.z', admin.user.id],
      ['shop', 'uploadRetentionHours', admin.user.id],
    ]);
  });
});
