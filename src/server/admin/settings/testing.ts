import type { LightMyRequestResponse } from 'fastify';
import { settings, settingsHistory } from '../../db/schema.ts';
import { TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts';

// Helpers for the settings tests: the calls, and the state a refused call must leave as it was.

export function sendJson(
  t: TestApp,
  method: 'PUT' | 'POST',
  url: string,
  body: unknown,
  cookie?: string,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
}

export const putJson = (t: TestApp, url: string, body: unknown, cookie?: string) =>
  sendJson(t, 'PUT', url, body, cookie);

export function getJson(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** The settings row and the whole history: what a refused call must not change. */
export async function settingsState(t: TestApp) {
  const db = t.database.db;
  return {
    rows: await db.select().from(settings),
    history: await db.select().from(settingsHistory).orderBy(settingsHistory.id),
  };
}

export async function historyRows(t: TestApp) {
  return t.database.db.select().from(settingsHistory).orderBy(settingsHistory.id);
}

export const PRICING_URL = '/api/admin/settings/pricing';
export const PREVIEW_URL = '/api/admin/settings/pricing/preview';
export const SHIPPING_URL = '/api/admin/settings/shipping';
export const PRODUCTION_URL = '/api/admin/settings/production';
export const HISTORY_URL = '/api/admin/settings/history';
export const SHOP_URL = '/api/admin/settings/shop';
