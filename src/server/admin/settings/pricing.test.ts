import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminPricingPayload } from '../../../shared/admin-settings.ts';
import { makeCustomer, post, uploadBox } from '../../checkout/testing.ts';
import { orderItems, orders, settings, settingsHistory } from '../../db/schema.ts';
import { DEFAULT_PRICING, type PricingSettings } from '../../pricing/settings.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin, paidOrder } from '../orders/testing.ts';
import { getJson, historyRows, PRICING_URL, putJson, settingsState } from './testing.ts';

// GET/PUT /api/admin/settings/pricing: the constants in force, saved with their history, refused with a
// sentence naming the field; new quotes follow at once, placed orders keep their prices.

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(settingsHistory);
  await t.database.db.delete(settings);
});

const save = (values: unknown, cookie = admin.cookie) => putJson(t, PRICING_URL, { values }, cookie);
const withValues = (change: Partial<PricingSettings>): PricingSettings => ({ ...DEFAULT_PRICING, ...change });

describe('GET /api/admin/settings/pricing', () => {
  it('answers the defaults in force, the defaults and nothing overridden without a row', async () => {
    const res = await getJson(t, PRICING_URL, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(adminPricingPayload.parse(res.json())).toEqual({
      values: DEFAULT_PRICING,
      defaults: DEFAULT_PRICING,
      overridden: [],
    });
  });
});

describe('PUT /api/admin/settings/pricing', () => {
  it('saves the full values, stores only what differs from the defaults and records who changed what', async () => {
    const values = withValues({
      pricePerGramCents: 7,
      infillByStrength: { ...DEFAULT_PRICING.infillByStrength, '3': 0.3 },
      quantityTiers: [
        { minQuantity: 5, percent: 3 },
        { minQuantity: 20, percent: 8 },
      ],
    });
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      values,
      defaults: DEFAULT_PRICING,
      overridden: ['pricePerGramCents', 'infillByStrength.3', 'quantityTiers'],
    });
    const [row] = await t.database.db.select().from(settings);
    expect(row!.pricing).toEqual({
      pricePerGramCents: 7,
      infillByStrength: { '3': 0.3 },
      quantityTiers: values.quantityTiers,
    });
    expect(row!.updatedBy).toBe(admin.user.id);
    // The same as GET answers from now on.
    expect((await getJson(t, PRICING_URL, admin.cookie)).json()).toEqual(res.json());

    const history = await historyRows(t);
    expect(history.map((h) => [h.section, h.key, h.oldValue, h.newValue, h.changedBy])).toEqual([
      ['pricing', 'infillByStrength.3', 0.25, 0.3, admin.user.id],
      ['pricing', 'pricePerGramCents', 5, 7, admin.user.id],
      ['pricing', 'quantityTiers', DEFAULT_PRICING.quantityTiers, values.quantityTiers, admin.user.id],
    ]);
    for (const h of history) expect(h.changedAt.getTime()).toBe(history[0]!.changedAt.getTime());
  });

  it('records nothing when nothing changes, and going back to a default removes the override', async () => {
    expect((await save(withValues({ setupFeeCents: 400 }))).statusCode).toBe(200);
    expect((await save(withValues({ setupFeeCents: 400 }))).statusCode).toBe(200);
    expect(await historyRows(t)).toHaveLength(1);
    const back = await save(DEFAULT_PRICING);
    expect(back.json().overridden).toEqual([]);
    const [row] = await t.database.db.select().from(settings);
    expect(row!.pricing).toEqual({});
    const history = await historyRows(t);
    expect(history.map((h) => [h.key, h.oldValue, h.newValue])).toEqual([
      ['setupFeeCents', 300, 400],
      ['setupFeeCents', 400, 300],
    ]);
  });

  const BAD: [string, unknown, string, string][] = [
    [
      'a negative rate',
      withValues({ hourlyRateCents: -1 }),
      'hourlyRateCents',
      'Machine rate must be at least $0.00.',
    ],
    [
      'a negative price per gram',
      withValues({ pricePerGramCents: -0.5 }),
      'pricePerGramCents',
      'Price per gram must be at least 0.',
    ],
    [
      'infill above 1',
      withValues({ infillByStrength: { ...DEFAULT_PRICING.infillByStrength, '4': 1.2 } }),
      'infillByStrength.4',
      'Infill for Heavy (4/5) must be at most 100 %.',
    ],
    [
      'tiers not rising in quantity',
      withValues({
        quantityTiers: [
          { minQuantity: 10, percent: 5 },
          { minQuantity: 10, percent: 10 },
        ],
      }),
      'quantityTiers.1.minQuantity',
      "Quantity discount 2: from quantity must be more than discount 1's (10).",
    ],
    [
      'tiers not rising in percent',
      withValues({
        quantityTiers: [
          { minQuantity: 10, percent: 10 },
          { minQuantity: 50, percent: 5 },
        ],
      }),
      'quantityTiers.1.percent',
      "Quantity discount 2: percent off must be more than discount 1's (10).",
    ],
    [
      'a minimum of 0',
      withValues({ minimumCents: 0 }),
      'minimumCents',
      'Minimum price must be at least $0.01.',
    ],
    [
      'a minimum in fractions of a cent',
      withValues({ minimumCents: 1250.5 }),
      'minimumCents',
      'Minimum price must be in whole cents.',
    ],
    ['an unknown key', { ...DEFAULT_PRICING, madeUp: 1 }, 'madeUp', 'Pricing: unknown setting madeUp.'],
    [
      'an unknown strength',
      withValues({ infillByStrength: { ...DEFAULT_PRICING.infillByStrength, '6': 1 } as never }),
      'infillByStrength.6',
      'Infill: unknown setting 6.',
    ],
    [
      'a missing key',
      (({ setupFeeCents: _, ...rest }) => rest)(DEFAULT_PRICING),
      'setupFeeCents',
      'Setup fee is missing.',
    ],
    [
      'text for a number',
      withValues({ setupFeeCents: '3' as never }),
      'setupFeeCents',
      'Setup fee must be a number.',
    ],
    [
      'a zero wall',
      withValues({ wallThicknessMm: 0 }),
      'wallThicknessMm',
      'Wall thickness must be more than 0.',
    ],
    [
      'a tier from 1 piece',
      withValues({ quantityTiers: [{ minQuantity: 1, percent: 5 }] }),
      'quantityTiers.0.minQuantity',
      'Quantity discount 1: from quantity must be at least 2.',
    ],
  ];

  it.each(BAD)('refuses %s with 400 naming the field, and saves nothing', async (_, values, field, error) => {
    expect((await save(withValues({ setupFeeCents: 450 }))).statusCode).toBe(200);
    const before = await settingsState(t);
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error, field });
    expect(await settingsState(t)).toEqual(before);
  });

  it('refuses a body without values, or with more than values', async () => {
    const before = await settingsState(t);
    for (const body of [{}, { values: DEFAULT_PRICING, extra: true }, { values: null }]) {
      const res = await putJson(t, PRICING_URL, body, admin.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    expect(await settingsState(t)).toEqual(before);
  });
});

describe('a saved price', () => {
  it('prices new quotes at once, while an order placed before keeps its prices', async () => {
    const customer = await makeCustomer(t);
    const block = await uploadBox(t, customer, 50, 'block.stl');
    const line = { modelId: block, color: '#007bff', strength: 5, quantity: 1 };
    const quote = async () => (await post(t, '/api/quote', line, customer.cookie)).json();
    const cartQuote = async () =>
      (await post(t, '/api/cart/quote', { items: [line], shipTo: 'US' }, customer.cookie)).json();

    const before = await quote();
    const orderId = await paidOrder(t, customer, block, { strength: 5 });
    const placedItems = await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const [placed] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(placedItems[0]!.unitPriceCents).toBe(Math.round(before.unitPrice * 100));

    const res = await save(withValues({ pricePerGramCents: 10 }));
    expect(res.statusCode).toBe(200);
    const after = await quote();
    // A 50 mm solid cube: 125 cm3 x 1.24 g/cm3 = 155 g, 5 cents more a gram.
    expect(Math.round((after.unitPrice - before.unitPrice) * 100)).toBe(775);
    expect((await cartQuote()).lines[0].unitPrice).toBe(after.unitPrice);
    const model = await getJson(t, `/api/models/${block}`, customer.cookie);
    expect(model.json().prices['5']).toBe(after.unitPrice);

    // The order as it was placed: its items, its total.
    expect(await t.database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId))).toEqual(
      placedItems,
    );
    const [now] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(now!.totalCents).toBe(placed!.totalCents);
    expect(now!.subtotalCents).toBe(placed!.subtotalCents);
    const mine = (await getJson(t, '/api/get_orders.php', customer.cookie)).json();
    const shown = mine.find((o: { id: number }) => o.id === orderId);
    expect(shown.items[0].cost).toBe(before.unitPrice);
  });
});
