import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminProductionPayload } from '../../../shared/admin-settings.ts';
import { makeCustomer, post, uploadBox } from '../../checkout/testing.ts';
import { settings, settingsHistory } from '../../db/schema.ts';
import { DEFAULT_PRODUCTION, type ProductionSettings } from '../../shipping/production-settings.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { getJson, historyRows, PRODUCTION_URL, putJson, settingsState } from './testing.ts';

// GET/PUT /api/admin/settings/production: printers, hours, working days, cut-off, time zone and holidays,
// with the ship-by day of an order paid now; saved with their history; the cart's dates follow at once.

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

const save = (values: unknown) => putJson(t, PRODUCTION_URL, { values }, admin.cookie);
const withValues = (change: Partial<ProductionSettings>): ProductionSettings => ({
  ...DEFAULT_PRODUCTION,
  ...change,
});
const withHolidays = (change: Partial<ProductionSettings['holidays']>) =>
  withValues({ holidays: { ...DEFAULT_PRODUCTION.holidays, ...change } });

describe('GET /api/admin/settings/production', () => {
  it('answers the settings in force, the defaults and the ship-by day of an order paid now', async () => {
    const res = await getJson(t, PRODUCTION_URL, admin.cookie);
    expect(res.statusCode).toBe(200);
    const answer = adminProductionPayload.parse(res.json());
    expect(answer).toMatchObject({
      values: DEFAULT_PRODUCTION,
      defaults: DEFAULT_PRODUCTION,
      overridden: [],
    });
    expect(answer.preview.shipBy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(answer.preview.queueHours).toBe(0);
  });
});

describe('PUT /api/admin/settings/production', () => {
  it('saves, records each changed key (the holidays part by part) and the dates follow at once', async () => {
    const customer = await makeCustomer(t);
    const cube = await uploadBox(t, customer, 20, 'cube.stl');
    const cartShipBy = async () =>
      (
        await post(
          t,
          '/api/cart/quote',
          { items: [{ modelId: cube, color: '#007bff', strength: 3, quantity: 1 }], shipTo: 'US' },
          customer.cookie,
        )
      ).json().shipping.options[0].shipBy as string;

    const first = (await getJson(t, PRODUCTION_URL, admin.cookie)).json().preview.shipBy as string;
    expect(await cartShipBy()).toBe(first);
    // The shop closes on the day it would have shipped: the order ships on a later one.
    const values = withValues({
      printers: 6,
      holidays: { country: 'US', region: 'WI', extraDays: [first], workingDays: [] },
    });
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(200);
    const answer = adminProductionPayload.parse(res.json());
    expect(answer.values).toEqual(values);
    expect(answer.overridden).toEqual(['printers', 'holidays.extraDays', 'holidays.region']);
    expect(answer.preview.shipBy > first).toBe(true);
    expect(await cartShipBy()).toBe(answer.preview.shipBy);

    const [row] = await t.database.db.select().from(settings);
    expect(row!.production).toEqual({ printers: 6, holidays: { region: 'WI', extraDays: [first] } });
    const history = await historyRows(t);
    expect(history.map((h) => [h.section, h.key, h.oldValue, h.newValue, h.changedBy])).toEqual([
      ['production', 'holidays.extraDays', [], [first], admin.user.id],
      ['production', 'holidays.region', null, 'WI', admin.user.id],
      ['production', 'printers', 4, 6, admin.user.id],
    ]);
  });

  const BAD: [string, unknown, string, string][] = [
    [
      'no printers',
      withValues({ printers: 0 }),
      'printers',
      'Printers must be a whole number from 1 to 1000.',
    ],
    [
      '25 hours a day',
      withValues({ hoursPerDay: 25 }),
      'hoursPerDay',
      'Hours per day must be a number above 0, up to 24.',
    ],
    [
      'no working day',
      withValues({ workingDays: [] }),
      'workingDays',
      'The shop must work at least one weekday.',
    ],
    [
      'a cut-off of 25:00',
      withValues({ cutoff: '25:00' }),
      'cutoff',
      'The cut-off is a 24-hour time HH:MM, like 14:00.',
    ],
    [
      'an unknown time zone',
      withValues({ timeZone: 'Mars/Base' }),
      'timeZone',
      'The time zone must be an IANA name, like America/Chicago.',
    ],
    [
      'a province of another country',
      withHolidays({ region: 'ON' }),
      'holidays.region',
      'The region must be a state or province of the holidays’ country.',
    ],
    [
      'a day that does not exist',
      withHolidays({ extraDays: ['2026-02-30'] }),
      'holidays.extraDays.0',
      'That day does not exist.',
    ],
    [
      'an unknown key',
      withHolidays({ vacation: true } as never),
      'holidays.vacation',
      'Holidays: unknown setting vacation.',
    ],
  ];

  it.each(BAD)('refuses %s with 400 naming the field, and saves nothing', async (_, values, field, error) => {
    expect((await save(withValues({ hoursPerDay: 16 }))).statusCode).toBe(200);
    const before = await settingsState(t);
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error, field });
    expect(await settingsState(t)).toEqual(before);
  });
});
