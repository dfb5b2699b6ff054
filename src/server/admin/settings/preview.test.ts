import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPricingPreviewPayload } from '../../../shared/admin-settings.ts';
import { makeCustomer, uploadBox } from '../../checkout/testing.ts';
import { DEFAULT_PRICING, type PricingSettings } from '../../pricing/settings.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { PREVIEW_URL, PRICING_URL, putJson, sendJson, settingsState } from './testing.ts';

// POST /api/admin/settings/pricing/preview: a sample at every strength and 1, 10, 50 pieces, priced with the
// pricing in force and with unsaved values, side by side; nothing is saved.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const preview = (body: unknown) => sendJson(t, 'POST', PREVIEW_URL, body, admin.cookie);
const withValues = (change: Partial<PricingSettings>): PricingSettings => ({ ...DEFAULT_PRICING, ...change });

describe('POST /api/admin/settings/pricing/preview', () => {
  it('prices a built-in sample before and after, at every strength and 1, 10 and 50 pieces, saving nothing', async () => {
    const before = await settingsState(t);
    const res = await preview({ values: withValues({ pricePerGramCents: 10 }), sample: 'block' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = adminPricingPreviewPayload.parse(res.json());
    expect(answer.sample).toEqual({
      id: 'block',
      label: 'Block 60 x 40 x 30 mm',
      volumeCm3: 72,
      areaCm2: 108,
      dimensions: { x: 60, y: 40, z: 30 },
    });
    expect(answer.rows.map((r) => [r.strength, r.quantity])).toEqual(
      [1, 2, 3, 4, 5].flatMap((s) => [1, 10, 50].map((q) => [s, q])),
    );
    // Solid: 72 cm3 = 89.28 g; $3.00 + 89.28 x 5 cents + 6 h x $2.50 = $22.46, at 10 cents a gram $26.93.
    const solid = answer.rows.filter((r) => r.strength === 5);
    expect(solid.map((r) => [r.before.unitCents, r.after.unitCents])).toEqual([
      [2246, 2693],
      [2246, 2693],
      [2246, 2693],
    ]);
    expect(solid[1]).toMatchObject({
      before: { lineCents: 21337, discountPercent: 5 },
      after: { lineCents: 25583, discountPercent: 5 },
    });
    // Hollow stays at the minimum either way.
    expect(answer.rows[0]).toMatchObject({
      before: { unitCents: 1200, minimumApplied: true },
      after: { unitCents: 1200, minimumApplied: true },
    });
    expect(await settingsState(t)).toEqual(before);
  });

  it('compares with the pricing in force, whatever it is', async () => {
    expect(
      (await putJson(t, PRICING_URL, { values: withValues({ minimumCents: 1500 }) }, admin.cookie))
        .statusCode,
    ).toBe(200);
    try {
      const res = await preview({ values: DEFAULT_PRICING, sample: 'cube-20' });
      expect(res.json().rows[0]).toMatchObject({ before: { unitCents: 1500 }, after: { unitCents: 1200 } });
    } finally {
      await putJson(t, PRICING_URL, { values: DEFAULT_PRICING }, admin.cookie);
    }
  });

  it("prices any stored model, a customer's too", async () => {
    const customer = await makeCustomer(t);
    const model = await uploadBox(t, customer, 50, 'customer-cube.stl');
    const res = await preview({ values: DEFAULT_PRICING, sample: model });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sample).toMatchObject({
      id: model,
      label: 'customer-cube.stl',
      dimensions: { x: 50, y: 50, z: 50 },
    });
    expect(res.json().sample.volumeCm3).toBeCloseTo(125);
    const quote = await sendJson(
      t,
      'POST',
      '/api/quote',
      { modelId: model, strength: 3, quantity: 10 },
      customer.cookie,
    );
    const row = res
      .json()
      .rows.find((r: { strength: number; quantity: number }) => r.strength === 3 && r.quantity === 10);
    expect(row.after.lineCents).toBe(Math.round(quote.json().lineTotal * 100));
  });

  it('answers 404 for a model that is not stored, 400 for a sample that is no sample', async () => {
    const missing = await preview({ values: DEFAULT_PRICING, sample: 'm_AAAAAAAAAAAAAAAAAAAAAA' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Model not found.' });
    expect(missing.headers['cache-control']).toBe('no-store');
    const bad = await preview({ values: DEFAULT_PRICING, sample: 'teapot' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'Choose one of the sample shapes, or give the id of a stored model.',
      field: 'sample',
    });
  });

  it('refuses values the save would refuse, naming the field, and saves nothing', async () => {
    const before = await settingsState(t);
    const res = await preview({
      values: withValues({ infillByStrength: { ...DEFAULT_PRICING.infillByStrength, '2': -0.1 } }),
      sample: 'cube-50',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Infill for Light (2/5) must be at least 0 %.',
      field: 'infillByStrength.2',
    });
    expect(await settingsState(t)).toEqual(before);
  });
});
