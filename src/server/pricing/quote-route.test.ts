import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotePayload } from '../../shared/models.ts';
import { boxStl, cookieFrom, makeUser, uploadRequest } from '../models/testing.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { savePricingOverrides } from './settings-repository.ts';

let t: TestApp;
let cube: string; // a 100 mm cube: $85.18 at Standard (pricing/price.test.ts)
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  const res = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(100, 100, 100) }));
  cube = res.json().id;
  cookie = cookieFrom(res);
});
afterAll(() => t.close());

const quote = (payload: unknown, c: string | null = cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/quote',
    headers: c ? { cookie: c } : {},
    payload: payload as object,
  });

describe('POST /api/quote', () => {
  it('prices a line with its breakdown, in dollars', async () => {
    const res = await quote({ modelId: cube, color: '#dc3545', strength: 3, quantity: 10 });
    expect(res.statusCode).toBe(200);
    // 10 x $85.18 = $851.80, 5 % off for 10+ = $42.59 -> $809.21.
    expect(quotePayload.parse(res.json())).toEqual({
      modelId: cube,
      color: '#dc3545',
      strength: 3,
      quantity: 10,
      currency: 'usd',
      unitPrice: 85.18,
      lineTotal: 809.21,
      breakdown: {
        printedVolumeCm3: 304,
        grams: 377,
        hours: 25.33,
        setupFee: 3,
        material: 18.85,
        machine: 63.33,
        minimumApplied: false,
        discountPercent: 5,
      },
    });
  });

  it('uses the defaults for color, strength and quantity', async () => {
    const res = await quote({ modelId: cube });
    expect(res.json()).toMatchObject({
      color: '#007bff',
      strength: 3,
      quantity: 1,
      unitPrice: 85.18,
      lineTotal: 85.18,
    });
  });

  it('refuses tampered inputs with 400 (docs/security.md 33)', async () => {
    for (const tampered of [
      { quantity: 0 },
      { quantity: -1 },
      { quantity: 1e9 },
      { quantity: 2.5 },
      { strength: 9 },
      { strength: 0 },
      { color: '#123456' },
      { color: 'purple' },
      { modelId: '' },
    ]) {
      const res = await quote({ modelId: cube, ...tampered });
      expect(res.statusCode, JSON.stringify(tampered)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
  });

  it('answers 404 for an unknown model or one the caller may not see', async () => {
    expect((await quote({ modelId: 'm_AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    expect((await quote({ modelId: cube }, null)).statusCode).toBe(404);
    const stranger = await makeUser(t);
    expect((await quote({ modelId: cube }, stranger.cookie)).statusCode).toBe(404);
  });

  it('follows the settings the admin saved', async () => {
    await savePricingOverrides(
      t.database.db,
      { minimumCents: 10_000, quantityTiers: [] },
      { userId: null, now: new Date() },
    );
    try {
      const res = await quote({ modelId: cube, quantity: 10 });
      expect(res.json()).toMatchObject({
        unitPrice: 100,
        lineTotal: 1000,
        breakdown: { minimumApplied: true, discountPercent: 0 },
      });
      const model = await t.app.inject({ url: `/api/models/${cube}`, headers: { cookie } });
      expect(model.json().prices).toEqual({ '1': 100, '2': 100, '3': 100, '4': 147.9, '5': 273.33 });
    } finally {
      await savePricingOverrides(t.database.db, {}, { userId: null, now: new Date() });
    }
  });
});
