import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSettingsHistoryPayload } from '../../../shared/admin-settings.ts';
import { DEFAULT_SHIPPING } from '../../../shared/shipping.ts';
import { settingsHistory } from '../../db/schema.ts';
import { DEFAULT_PRICING } from '../../pricing/settings.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { recordSettingChanges } from './history.ts';
import { getJson, HISTORY_URL, PRICING_URL, putJson, SHIPPING_URL } from './testing.ts';

// GET /api/admin/settings/history: who changed which setting when, old and new values, newest first, by pages.

let t: TestApp;
let ada: Awaited<ReturnType<typeof makeAdmin>>;
let bob: Awaited<ReturnType<typeof makeAdmin>>;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  ada = await makeAdmin(t, 'ada-admin');
  bob = await makeAdmin(t, 'bob-admin');
});
afterAll(() => t.close());

describe('GET /api/admin/settings/history', () => {
  it("lists each change newest first with the admin's username, old and new values", async () => {
    const saved = await putJson(
      t,
      PRICING_URL,
      { values: { ...DEFAULT_PRICING, setupFeeCents: 350 } },
      ada.cookie,
    );
    expect(saved.statusCode).toBe(200);
    t.advance(60_000);
    const us = [{ ...DEFAULT_SHIPPING.US[0]!, priceCents: 750 }];
    expect(
      (await putJson(t, SHIPPING_URL, { values: { ...DEFAULT_SHIPPING, US: us } }, bob.cookie)).statusCode,
    ).toBe(200);

    const res = await getJson(t, HISTORY_URL, ada.cookie);
    expect(res.statusCode).toBe(200);
    const page = adminSettingsHistoryPayload.parse(res.json());
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(page.changes.map((c) => [c.section, c.key, c.oldValue, c.newValue, c.changedBy])).toEqual([
      ['shipping', 'US', DEFAULT_SHIPPING.US, us, 'bob-admin'],
      ['pricing', 'setupFeeCents', 300, 350, 'ada-admin'],
    ]);
    expect(Date.parse(page.changes[0]!.changedAt)).toBeGreaterThan(Date.parse(page.changes[1]!.changedAt));

    const pricing = await getJson(t, `${HISTORY_URL}?section=pricing`, ada.cookie);
    expect(pricing.json().changes.map((c: { key: string }) => c.key)).toEqual(['setupFeeCents']);
    expect(pricing.json().total).toBe(1);
  });

  it('pages by 50, and a change made outside the panel has no username', async () => {
    await t.database.db.delete(settingsHistory);
    const before = Object.fromEntries(
      Array.from({ length: 55 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]),
    );
    const after = Object.fromEntries(Object.keys(before).map((k) => [k, -1]));
    await recordSettingChanges(t.database.db, 'shop', before, after, { userId: null, now: new Date() });
    const first = (await getJson(t, HISTORY_URL, ada.cookie)).json();
    expect(first.total).toBe(55);
    expect(first.changes).toHaveLength(50);
    const second = (await getJson(t, `${HISTORY_URL}?page=2`, ada.cookie)).json();
    expect(second.changes).toHaveLength(5);
    expect(second.changes[0]).toMatchObject({ section: 'shop', changedBy: null });
    const ids = [...first.changes, ...second.changes].map((c: { id: number }) => c.id);
    expect(new Set(ids).size).toBe(55);
    expect((await getJson(t, `${HISTORY_URL}?page=3`, ada.cookie)).json().changes).toEqual([]);
  });

  it('refuses a page that is not a page', async () => {
    for (const q of ['page=0', 'page=x', 'section=nope']) {
      const res = await getJson(t, `${HISTORY_URL}?${q}`, ada.cookie);
      expect(res.statusCode, q).toBe(400);
    }
  });
});
