import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box, objText } from '../../mesh/testing/generate.ts';
import { modelPayload } from '../../shared/models.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { claimVisitorModels, findModel } from './models-repository.ts';
import { boxStl, cookieFrom, makeOrder, makeUser, uploadRequest } from './testing.ts';

let t: TestApp;
let model: { id: string };
let owner: string; // the uploading browser's Cookie header
const bytes = boxStl(40, 30, 20);

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  const res = await t.app.inject(uploadRequest({ fileName: 'my %22part%22;.stl', bytes }));
  model = res.json();
  owner = cookieFrom(res);
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });
const urls = () => [
  `/api/models/${model.id}`,
  `/api/models/${model.id}/file`,
  `/api/models/${model.id}/preview.png`,
];

describe('model access (docs/security.md 20)', () => {
  it('lets the uploading browser read the model, its file and its preview', async () => {
    const info = await get(`/api/models/${model.id}`, owner);
    expect(info.statusCode).toBe(200);
    expect(modelPayload.parse(info.json())).toEqual(model);
    expect(info.json().fileName).toBe('my "part";.stl');
    const preview = await get(`/api/models/${model.id}/preview.png`, owner);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    expect(preview.headers['cache-control']).toContain('private');
    expect(preview.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('serves the file as an attachment: octet-stream, nosniff, a safe name (docs/security.md 32)', async () => {
    const file = await get(`/api/models/${model.id}/file`, owner);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="my _part__.stl"; filename*=UTF-8''my%20%22part%22%3B.stl`,
    );
    expect(file.headers['cache-control']).toContain('no-store');
    expect(Buffer.compare(file.rawPayload, Buffer.from(bytes))).toBe(0);
  });

  it('answers 404 to another browser, to nobody and to another user, as for an unknown id', async () => {
    const other = cookieFrom(
      await t.app.inject(uploadRequest({ fileName: 'x.obj', bytes: objText(box(10, 10, 10)) })),
    );
    const stranger = await makeUser(t);
    for (const url of urls()) {
      for (const cookie of [other, undefined, stranger.cookie, 'visitor=not-a-real-cookie']) {
        const res = await get(url, cookie);
        expect(res.statusCode, `${url} ${cookie}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Model not found.' });
      }
    }
    for (const url of [
      '/api/models/m_AAAAAAAAAAAAAAAAAAAAAA',
      '/api/models/../../etc/passwd/file',
      '/api/models/x/file',
    ]) {
      expect((await get(url, owner)).statusCode).toBe(404);
    }
  });

  it('lets an admin and the owner of an order holding the model read it', async () => {
    const admin = await makeUser(t, { admin: true });
    const buyer = await makeUser(t);
    for (const url of urls()) expect((await get(url, buyer.cookie)).statusCode).toBe(404);
    await makeOrder(t, buyer.id, model.id);
    for (const url of urls()) {
      expect((await get(url, admin.cookie)).statusCode, url).toBe(200);
      expect((await get(url, buyer.cookie)).statusCode, url).toBe(200);
    }
  });

  it('gives a logged-in upload to the account, with no visitor cookie', async () => {
    const user = await makeUser(t);
    const res = await t.app.inject(
      uploadRequest({ fileName: 'mine.stl', bytes: boxStl(11, 12, 13) }, user.cookie),
    );
    expect(res.statusCode).toBe(201);
    expect(res.cookies.find((c) => c.name === 'visitor')).toBeUndefined();
    const row = await findModel(t.database.db, res.json().id);
    expect(row).toMatchObject({ ownerUserId: user.id, ownerVisitorHash: null });
    expect((await get(`/api/models/${row!.id}/file`, user.cookie)).statusCode).toBe(200);
  });

  it("claimVisitorModels moves a browser's models to the account at login", async () => {
    const res = await t.app.inject(uploadRequest({ fileName: 'claim.stl', bytes: boxStl(14, 15, 16) }));
    const browser = cookieFrom(res);
    const user = await makeUser(t);
    expect((await get(`/api/models/${res.json().id}`, user.cookie)).statusCode).toBe(404);
    const raw = browser.slice('visitor='.length);
    expect(await claimVisitorModels(t.database.db, raw, user.id)).toBe(1);
    expect(await claimVisitorModels(t.database.db, raw, user.id)).toBe(0);
    expect(await claimVisitorModels(t.database.db, 'garbage', user.id)).toBe(0);
    // The stored hash is not a cookie (issue 15.5).
    expect(await claimVisitorModels(t.database.db, 'a'.repeat(64), user.id)).toBe(0);
    expect((await get(`/api/models/${res.json().id}`, user.cookie)).statusCode).toBe(200);
    // The browser alone (logged out) no longer holds it.
    expect((await get(`/api/models/${res.json().id}`, browser)).statusCode).toBe(404);
  });
});

describe('POST /api/models/:id/scale', () => {
  const scale = (id: string, factor: unknown, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/models/${id}/scale`,
      headers: cookie ? { cookie } : {},
      payload: { factor },
    });

  it('makes a new model 25.4 times larger sharing the file, with warnings and prices recomputed', async () => {
    const up = await t.app.inject(uploadRequest({ fileName: 'inches.stl', bytes: boxStl(2, 1, 0.5) }));
    const small = up.json();
    const cookie = cookieFrom(up);
    expect(small.warnings.map((w: { code: string }) => w.code)).toEqual(['maybe_inches']);
    const res = await scale(small.id, 25.4, cookie);
    expect(res.statusCode).toBe(201);
    const big = modelPayload.parse(res.json());
    expect(big.id).not.toBe(small.id);
    expect(big.scale).toBe(25.4);
    expect(big.dimensions).toEqual({ x: 50.8, y: 25.4, z: 12.7 });
    // 1 mm3 x 25.4^3 = 16387.064 mm3; 7 mm2 x 25.4^2 = 4516.12 mm2.
    expect(big.volumeCm3).toBeCloseTo(16.387064, 4);
    expect(big.areaCm2).toBeCloseTo(45.1612, 4);
    expect(big.warnings).toEqual([]);
    // 45.1612 x 0.12 = 5.4193 cm3 shell; Solid: 16.387 cm3, 20.32 g -> 101.6 c; 1.3656 h -> 341.4 c;
    // 300 + 101.6 + 341.4 = 743 c: still the $12.00 minimum.
    expect(big.prices['5']).toBe(12);
    const rows = [await findModel(t.database.db, small.id), await findModel(t.database.db, big.id)];
    expect(rows[0]!.storageKey).toBe(rows[1]!.storageKey);
    expect(rows[0]!.previewKey).toBe(rows[1]!.previewKey);
    expect((await get(big.previewImage, cookie)).statusCode).toBe(200);
    // Asking again answers the same model; scaling back gives the original size.
    expect((await scale(small.id, 25.4, cookie)).json().id).toBe(big.id);
    expect((await scale(big.id, 1 / 25.4, cookie)).json().id).toBe(small.id);
  });

  it('refuses other factors (400) and models of others (404)', async () => {
    expect((await scale(model.id, 3, owner)).statusCode).toBe(400);
    expect((await scale(model.id, '25.4', owner)).statusCode).toBe(400);
    const other = cookieFrom(
      await t.app.inject(uploadRequest({ fileName: 'y.stl', bytes: boxStl(3, 3, 3) })),
    );
    expect((await scale(model.id, 25.4, other)).statusCode).toBe(404);
    expect((await scale(model.id, 25.4)).statusCode).toBe(404);
  });
});
