import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminShippingPayload } from '../../../shared/admin-settings.ts';
import { DEFAULT_SHIPPING, type ShippingSettings } from '../../../shared/shipping.ts';
import {
  cartItem,
  makeCustomer,
  orderOfSession,
  post,
  startCheckout,
  uploadBox,
} from '../../checkout/testing.ts';
import { settings, settingsHistory } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { getJson, historyRows, putJson, SHIPPING_URL, settingsState } from './testing.ts';

// GET/PUT /api/admin/settings/shipping: each country's methods, saved with their history (one entry per
// country that changed), refused with a sentence naming the method and field; the cart follows at once.

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

const save = (values: unknown) => putJson(t, SHIPPING_URL, { values }, admin.cookie);
const [usStandard, usExpedited] = DEFAULT_SHIPPING.US;
const withUs = (...US: unknown[]) => ({ ...DEFAULT_SHIPPING, US }) as ShippingSettings;

describe('GET /api/admin/settings/shipping', () => {
  it('answers the methods in force, the defaults and the countries overridden', async () => {
    const res = await getJson(t, SHIPPING_URL, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(adminShippingPayload.parse(res.json())).toEqual({
      values: DEFAULT_SHIPPING,
      defaults: DEFAULT_SHIPPING,
      overridden: [],
    });
  });
});

describe('PUT /api/admin/settings/shipping', () => {
  it('saves both countries, stores the one that differs and records its old and new methods', async () => {
    const cheaper = { ...usStandard!, priceCents: 595, freeFromCents: 5000 };
    const local = {
      id: 'us-local',
      name: 'Local pickup',
      priceCents: 0,
      transitDays: { min: 0, max: 0 },
      freeFromCents: null,
    };
    const values = withUs(cheaper, usExpedited, local);
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ values, defaults: DEFAULT_SHIPPING, overridden: ['US'] });
    const [row] = await t.database.db.select().from(settings);
    expect(row!.shipping).toEqual({ US: values.US });
    const history = await historyRows(t);
    expect(history.map((h) => [h.section, h.key, h.oldValue, h.newValue, h.changedBy])).toEqual([
      ['shipping', 'US', DEFAULT_SHIPPING.US, values.US, admin.user.id],
    ]);
  });

  it('offers the new price in the cart at once; a placed order keeps the offers it was made', async () => {
    const customer = await makeCustomer(t);
    const cube = await uploadBox(t, customer, 20, 'cube.stl');
    const placed = await startCheckout(t, customer, [cartItem(cube)]);
    const offersBefore = (await orderOfSession(t, placed.json().id))!.shippingOffers;
    expect((await save(withUs({ ...usStandard!, priceCents: 795 }, usExpedited))).statusCode).toBe(200);
    const quote = await post(
      t,
      '/api/cart/quote',
      { items: [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }], shipTo: 'US' },
      customer.cookie,
    );
    expect(quote.json().shipping.options[0]).toMatchObject({ id: 'us-standard', priceCents: 795 });
    expect((await t.app.inject('/api/shop')).json().shipping.US[0].priceCents).toBe(795);
    expect((await orderOfSession(t, placed.json().id))!.shippingOffers).toEqual(offersBefore);
  });

  const BAD: [string, unknown, string, string][] = [
    [
      'a negative price',
      withUs({ ...usStandard!, priceCents: -1 }),
      'US.0.priceCents',
      'Shipping to United States, method 1: price must be at least $0.00.',
    ],
    [
      'more fewest transit days than most',
      withUs(usStandard, { ...usExpedited!, transitDays: { min: 4, max: 2 } }),
      'US.1.transitDays',
      'The fewest transit days cannot be more than the most.',
    ],
    [
      'an empty name',
      withUs({ ...usStandard!, name: '  ' }),
      'US.0.name',
      'Shipping to United States, method 1: name cannot be empty.',
    ],
    ['no method', withUs(), 'US', 'Each country needs at least one shipping method.'],
    ['two methods with one id', withUs(usStandard, usStandard), 'US', 'Method ids must differ.'],
    [
      'an unknown key in a method',
      withUs({ ...usStandard!, color: 'red' }),
      'US.0.color',
      'Shipping to United States, method 1: unknown setting color.',
    ],
    ['a country missing', { US: DEFAULT_SHIPPING.US }, 'CA', 'Shipping to Canada is missing.'],
    [
      'another country',
      { ...DEFAULT_SHIPPING, MX: DEFAULT_SHIPPING.US },
      'MX',
      'Shipping: unknown setting MX.',
    ],
  ];

  it.each(BAD)('refuses %s with 400 naming the field, and saves nothing', async (_, values, field, error) => {
    expect((await save(withUs({ ...usStandard!, priceCents: 700 }, usExpedited))).statusCode).toBe(200);
    const before = await settingsState(t);
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error, field });
    expect(await settingsState(t)).toEqual(before);
  });
});
