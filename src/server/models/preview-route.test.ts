import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/testing/generate.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { extrasSettled } from './extras-service.ts';
import { findModel } from './models-repository.ts';
import { boxStl, cookieFrom, makeUser, meshStl, uploadAndScale, uploadRequest } from './testing.ts';

// GET /api/models/:id/preview.png when the model has no preview yet: a big model's is made after its upload
// answers (the customer waits only for the price), and one missing for any other reason is made on request.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const PNG = '\x89PNG';
const preview = (id: string, cookie?: string) =>
  t.app.inject({ url: `/api/models/${id}/preview.png`, headers: cookie ? { cookie } : {} });

async function upload(fileName: string, bytes: Uint8Array | string, cookie?: string) {
  const res = await t.app.inject(uploadRequest({ fileName, bytes }, cookie));
  return { res, model: res.json() as { id: string; triangles: number }, cookie: cookie ?? cookieFrom(res) };
}

/** A stage's milliseconds in a Server-Timing header. */
function stage(header: unknown, name: string): number {
  const match = new RegExp(`${name};dur=([\\d.]+)`).exec(String(header));
  if (!match) throw new Error(`no ${name} in ${String(header)}`);
  return Number(match[1]);
}

describe('the preview of a model that has none yet', () => {
  it("answers a big model's upload before its preview; previews asked for meanwhile wait for that one", async () => {
    const filesDir = path.join(t.dataDir, 'files');
    const stored = () => (fs.existsSync(filesDir) ? fs.readdirSync(filesDir).length : 0);
    const before = stored();
    // 250,000 triangles: more than the worker keeps in memory, so the preview takes another pass, later.
    const { res, model, cookie } = await upload('later.stl', meshStl(uvSphere(30, 500, 251)));
    expect(res.statusCode).toBe(201);
    expect(model.triangles).toBeGreaterThan(200_000);
    // Not rendered in the upload's own worker task: that takes hundreds of milliseconds. The bound is not
    // 1 ms, since a collection in the worker may land between the two clock reads of an empty stage.
    expect(stage(res.headers['server-timing'], 'preview')).toBeLessThan(50);
    const [a, b] = await Promise.all([preview(model.id, cookie), preview(model.id, cookie)]);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('image/png');
    expect(a.rawPayload.subarray(0, 4).toString('latin1')).toBe(PNG);
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    await extrasSettled();
    // The file, one preview and one view mesh.
    expect(stored() - before).toBe(3);
    const row = await findModel(t.database.db, model.id);
    expect(row?.previewKey).toBeTruthy();
    expect(row?.viewKey).toBeTruthy();
    // Still the model's own: nobody else sees it being made or made.
    const stranger = await makeUser(t);
    expect((await preview(model.id, stranger.cookie)).statusCode).toBe(404);
  }, 60_000);

  it('makes a missing preview on the first request, for every row of its file', async () => {
    const { user, modelId, scaledId } = await uploadAndScale(t, 'lost.stl');
    const oldKey = (await findModel(t.database.db, modelId))!.previewKey!;
    // As a background job cut short by a restart leaves it: no preview.
    await t.database.db.update(models).set({ previewKey: null }).where(eq(models.previewKey, oldKey));
    // A stranger's request makes nothing.
    const stranger = await makeUser(t);
    expect((await preview(scaledId, stranger.cookie)).statusCode).toBe(404);
    expect((await findModel(t.database.db, scaledId))!.previewKey).toBeNull();
    const res = await preview(scaledId, user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe(PNG);
    const made = (await findModel(t.database.db, scaledId))!.previewKey;
    expect(made).toBeTruthy();
    expect(made).not.toBe(oldKey);
    expect((await findModel(t.database.db, modelId))!.previewKey).toBe(made);
  });

  it('gives a model the preview another row of its file already has, without drawing it again', async () => {
    const { user, modelId, scaledId } = await uploadAndScale(t, 'shared.stl');
    const key = (await findModel(t.database.db, modelId))!.previewKey!;
    // As a copy written after the job gave its rows the preview.
    await t.database.db.update(models).set({ previewKey: null }).where(eq(models.id, scaledId));
    await extrasSettled();
    const filesDir = path.join(t.dataDir, 'files');
    const before = fs.readdirSync(filesDir).length;
    const res = await preview(scaledId, user.cookie);
    expect(res.statusCode).toBe(200);
    expect((await findModel(t.database.db, scaledId))!.previewKey).toBe(key);
    expect(fs.readdirSync(filesDir).length).toBe(before);
  });

  it('answers 404 when no preview can be drawn, and does not try again at every request', async () => {
    const user = await makeUser(t);
    const { model } = await upload('broken.stl', boxStl(8, 8, 8), user.cookie);
    const row = (await findModel(t.database.db, model.id))!;
    await t.database.db.update(models).set({ previewKey: null }).where(eq(models.id, model.id));
    // The stored file damaged behind the shop's back: the worker cannot read it.
    const stored = path.join(t.dataDir, 'files', row.storageKey);
    const good = fs.readFileSync(stored);
    fs.writeFileSync(stored, 'solid broken\nfacet normal 0 0 1\n');
    expect((await preview(model.id, user.cookie)).statusCode).toBe(404);
    // Mended, it is still not drawn for a while: a failure is remembered, so asking again costs nothing.
    fs.writeFileSync(stored, good);
    expect((await preview(model.id, user.cookie)).statusCode).toBe(404);
    expect((await findModel(t.database.db, model.id))!.previewKey).toBeNull();
  });
});
