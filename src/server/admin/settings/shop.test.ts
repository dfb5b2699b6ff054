import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminShopPayload, type ShopValues } from '../../../shared/admin-settings.ts';
import { makeCustomer, post } from '../../checkout/testing.ts';
import { settings, settingsHistory } from '../../db/schema.ts';
import { cleanupExpiredModels } from '../../models/cleanup.ts';
import { findModel } from '../../models/models-repository.ts';
import { boxStl, uploadRequest } from '../../models/testing.ts';
import { uploadRetentionReader } from '../../settings/shop-settings.ts';
import { LocalFileStore } from '../../storage/local-file-store.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { makeAdmin } from '../orders/testing.ts';
import { getJson, historyRows, putJson, SHOP_URL, settingsState } from './testing.ts';

// GET/PUT /api/admin/settings/shop: the printer's build volume and the upload retention over the
// environment's defaults (BUILD_VOLUME_MM, UPLOAD_RETENTION_HOURS); saved with their history; the cart's
// checks, a new upload's warnings and the cleanup follow at once.

const HOUR = 3600_000;
const ENV_DEFAULTS: ShopValues = { buildVolumeMm: { x: 256, y: 256, z: 200 }, uploadRetentionHours: 72 };
const CONFIG = { buildVolumeMm: ENV_DEFAULTS.buildVolumeMm, uploadRetentionMs: 72 * HOUR };

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeAdmin>>;
beforeAll(async () => {
  t = await buildTestApp({
    RATE_LIMIT_SCALE: '100',
    BUILD_VOLUME_MM: '256x256x200',
    UPLOAD_RETENTION_HOURS: '72',
  });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(settingsHistory);
  await t.database.db.delete(settings);
});

const save = (values: unknown) => putJson(t, SHOP_URL, { values }, admin.cookie);
const withValues = (change: Partial<ShopValues>): ShopValues => ({ ...ENV_DEFAULTS, ...change });
const withVolume = (change: Partial<ShopValues['buildVolumeMm']>) =>
  withValues({ buildVolumeMm: { ...ENV_DEFAULTS.buildVolumeMm, ...change } });

describe('GET /api/admin/settings/shop', () => {
  it("answers the settings in force with the environment's defaults", async () => {
    const res = await getJson(t, SHOP_URL, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(adminShopPayload.parse(res.json())).toEqual({
      values: ENV_DEFAULTS,
      defaults: ENV_DEFAULTS,
      overridden: [],
    });
  });

  it('ignores a stored key that is not valid, keeping the others', async () => {
    await t.database.db
      .insert(settings)
      .values({ id: 1, shop: { buildVolumeMm: { x: 5, y: 300, z: 'tall' }, uploadRetentionHours: 24 } });
    const answer = adminShopPayload.parse((await getJson(t, SHOP_URL, admin.cookie)).json());
    expect(answer.values).toEqual({ buildVolumeMm: { x: 256, y: 300, z: 200 }, uploadRetentionHours: 24 });
    expect(answer.overridden).toEqual(['buildVolumeMm.y', 'uploadRetentionHours']);
  });
});

describe('PUT /api/admin/settings/shop', () => {
  it('saves what differs from the defaults and records each changed key', async () => {
    const values = withValues({ buildVolumeMm: { x: 300, y: 256, z: 250 }, uploadRetentionHours: 24 });
    const res = await save(values);
    expect(res.statusCode, res.body).toBe(200);
    const answer = adminShopPayload.parse(res.json());
    expect(answer).toEqual({
      values,
      defaults: ENV_DEFAULTS,
      overridden: ['buildVolumeMm.x', 'buildVolumeMm.z', 'uploadRetentionHours'],
    });
    expect((await getJson(t, SHOP_URL, admin.cookie)).json()).toEqual(answer);

    const [row] = await t.database.db.select().from(settings);
    expect(row!.shop).toEqual({ buildVolumeMm: { x: 300, z: 250 }, uploadRetentionHours: 24 });
    const history = await historyRows(t);
    expect(history.map((h) => [h.section, h.key, h.oldValue, h.newValue, h.changedBy])).toEqual([
      ['shop', 'buildVolumeMm.x', 256, 300, admin.user.id],
      ['shop', 'buildVolumeMm.z', 200, 250, admin.user.id],
      ['shop', 'uploadRetentionHours', 72, 24, admin.user.id],
    ]);

    // Back to the defaults: nothing stored, the history says so.
    const back = await save(ENV_DEFAULTS);
    expect(back.json().overridden).toEqual([]);
    const [after] = await t.database.db.select().from(settings);
    expect(after!.shop).toEqual({});
    expect(await historyRows(t)).toHaveLength(6);
    const list = await getJson(t, '/api/admin/settings/history?section=shop', admin.cookie);
    expect(list.json().total).toBe(6);
  });

  const BAD: [string, unknown, string, string][] = [
    [
      'a width of 5 mm',
      withVolume({ x: 5 }),
      'buildVolumeMm.x',
      'Build volume X (width) must be a number from 10 to 2000 mm.',
    ],
    [
      'a height of 3000 mm',
      withVolume({ z: 3000 }),
      'buildVolumeMm.z',
      'Build volume Z (height) must be a number from 10 to 2000 mm.',
    ],
    [
      'a depth as text',
      withVolume({ y: '200' as unknown as number }),
      'buildVolumeMm.y',
      'Build volume Y (depth) must be a number.',
    ],
    [
      'a retention of 0 hours',
      withValues({ uploadRetentionHours: 0 }),
      'uploadRetentionHours',
      'Upload retention must be a number of hours from 1 to 8760 (a year).',
    ],
    [
      'a retention above a year',
      withValues({ uploadRetentionHours: 9000 }),
      'uploadRetentionHours',
      'Upload retention must be a number of hours from 1 to 8760 (a year).',
    ],
    [
      'a missing axis',
      { ...ENV_DEFAULTS, buildVolumeMm: { x: 100, y: 100 } },
      'buildVolumeMm.z',
      'Build volume Z (height) is missing.',
    ],
    ['an unknown key', { ...ENV_DEFAULTS, nozzleMm: 0.4 }, 'nozzleMm', 'Shop: unknown setting nozzleMm.'],
  ];
  it.each(BAD)(
    'refuses %s with 400 naming the field, saving nothing',
    async (_name, values, field, error) => {
      await save(withValues({ uploadRetentionHours: 48 }));
      const before = await settingsState(t);
      const res = await save(values);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error, field });
      expect(await settingsState(t)).toEqual(before);
    },
  );
});

describe('the shop settings in use', () => {
  it('a smaller build volume refuses a model in the cart quote and warns on a new upload', async () => {
    const customer = await makeCustomer(t);
    const upload = async (fileName: string, size: number) => {
      const res = await t.app.inject(
        uploadRequest({ fileName, bytes: boxStl(size, size, size) }, customer.cookie),
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; warnings: { code: string; message: string }[] };
    };
    const quote = async (modelId: string) =>
      (
        await post(
          t,
          '/api/cart/quote',
          { items: [{ modelId, color: '#007bff', strength: 3, quantity: 1 }], shipTo: 'US' },
          customer.cookie,
        )
      ).json().lines[0];

    const before = await upload('box60.stl', 60);
    expect(before.warnings.map((w) => w.code)).not.toContain('too_big');
    expect(await quote(before.id)).not.toHaveProperty('error');

    expect((await save(withVolume({ x: 50, y: 50, z: 50 }))).statusCode).toBe(200);

    expect(await quote(before.id)).toEqual({
      error: '"box60.stl" is too big for our printer (at most 50 x 50 x 50 mm).',
    });
    const after = await upload('box60-again.stl', 61);
    expect(after.warnings).toContainEqual({
      code: 'too_big',
      message: 'This model does not fit our printer (50 x 50 x 50 mm)',
    });
    // A model read again follows too.
    const read = await getJson(t, `/api/models/${before.id}`, customer.cookie);
    expect(read.json().warnings.map((w: { code: string }) => w.code)).toContain('too_big');
  });

  it('the cleanup removes uploads after the retention in force', async () => {
    const id = (await t.app.inject(uploadRequest({ fileName: 'old.stl', bytes: boxStl(12, 13, 14) }))).json()
      .id as string;
    const run = () =>
      cleanupExpiredModels({
        db: t.database.db,
        store: new LocalFileStore(path.join(t.dataDir, 'files')),
        now: () => new Date(Date.now() + 3 * HOUR),
        retentionMs: uploadRetentionReader(t.database.db, CONFIG),
        tmpDir: path.join(t.dataDir, 'tmp'),
      });
    // Three hours later, with the environment's 72 hours: kept.
    expect((await run()).models).toBe(0);
    expect(await findModel(t.database.db, id)).toBeDefined();

    expect((await save(withValues({ uploadRetentionHours: 2 }))).statusCode).toBe(200);
    expect((await run()).models).toBeGreaterThanOrEqual(1);
    expect(await findModel(t.database.db, id)).toBeUndefined();
  });
});
