import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/testing/generate.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { extrasSettled } from './extras-service.ts';
import { findModel } from './models-repository.ts';
import { boxStl, cookieFrom, makeUser, meshStl, uploadAndScale, uploadRequest } from './testing.ts';

// GET /api/models/:id/view.glb: the 3D viewer's mesh, made at upload (or on the first view of an older
// model), with the model's own access rules.

const fixtures = path.resolve(fileURLToPath(new URL('../../../fixtures/real-world', import.meta.url)));

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const view = (id: string, cookie?: string) =>
  t.app.inject({ url: `/api/models/${id}/view.glb`, headers: cookie ? { cookie } : {} });

async function upload(fileName: string, bytes: Uint8Array | string, cookie?: string) {
  const res = await t.app.inject(uploadRequest({ fileName, bytes }, cookie));
  return { res, model: res.json() as { id: string; triangles: number }, cookie: cookie ?? cookieFrom(res) };
}

describe('the view mesh route', () => {
  it('answers the GLB made at upload to the owner, and 404 to anyone else', async () => {
    const { model, cookie } = await upload('box.stl', boxStl(20, 30, 40));
    const row = await findModel(t.database.db, model.id);
    expect(row?.viewKey).toBeTruthy();
    const res = await view(model.id, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/gltf-binary');
    expect(res.headers['x-view-simplified']).toBe('0');
    expect(res.headers['x-view-triangles']).toBe('12');
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    const stranger = await makeUser(t);
    for (const other of [undefined, stranger.cookie, 'visitor=not-a-real-cookie']) {
      expect((await view(model.id, other)).statusCode).toBe(404);
    }
    expect((await view('m_doesNotExist0000000000', cookie)).statusCode).toBe(404);
  });

  it('says when a big model was simplified for display', async () => {
    const { model, cookie } = await upload('sphere.stl', meshStl(uvSphere(40, 600, 300)));
    expect(model.triangles).toBeGreaterThan(300_000);
    const res = await view(model.id, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-view-simplified']).toBe('1');
    expect(Number(res.headers['x-view-triangles'])).toBeLessThanOrEqual(300_000);
  }, 60_000);

  it("makes a big model's view after the upload answers; views asked for meanwhile wait for that one", async () => {
    // The earlier big model's preview, made after its upload, must not land in this count.
    await extrasSettled();
    const filesDir = path.join(t.dataDir, 'files');
    const before = fs.readdirSync(filesDir).length;
    // 250,000 triangles: more than the worker keeps for a one-pass preview, so the view is made later.
    const { res, model, cookie } = await upload('later.stl', meshStl(uvSphere(30, 500, 251)));
    expect(res.statusCode).toBe(201);
    expect(model.triangles).toBeGreaterThan(200_000);
    const [a, b] = await Promise.all([view(model.id, cookie), view(model.id, cookie)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.headers['x-view-triangles']).toBe(String(model.triangles));
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    await extrasSettled();
    // The file, its preview and one view mesh, whoever made it first.
    expect(fs.readdirSync(filesDir).length - before).toBe(3);
    expect((await findModel(t.database.db, model.id))?.viewKey).toBeTruthy();
  }, 60_000);

  it('makes the view of a model uploaded before view meshes on its first view, for every row of its file', async () => {
    const { user, modelId, scaledId } = await uploadAndScale(t, 'old.stl');
    const oldKey = (await findModel(t.database.db, modelId))!.viewKey!;
    // As a row written before this change: no view mesh yet.
    await t.database.db
      .update(models)
      .set({ viewKey: null, viewTriangles: null })
      .where(eq(models.viewKey, oldKey));
    const res = await view(scaledId, user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    const made = (await findModel(t.database.db, scaledId))!.viewKey;
    expect(made).toBeTruthy();
    expect((await findModel(t.database.db, modelId))!.viewKey).toBe(made);
  });

  it('has a view for every real-world fixture the server accepts', async () => {
    const files = [
      'numpy-stl/stl_binary',
      'numpy-stl/stl_ascii',
      'numpy-stl/stl_tests',
      'tinyobjloader',
    ].flatMap((d) =>
      fs
        .readdirSync(path.join(fixtures, d))
        .filter((f) => /\.(stl|obj)$/i.test(f))
        .map((f) => path.join(d, f)),
    );
    expect(files.length).toBeGreaterThan(40);
    let accepted = 0;
    for (const file of files) {
      const { res, model, cookie } = await upload(
        path.basename(file),
        fs.readFileSync(path.join(fixtures, file)),
      );
      if (res.statusCode !== 201) continue;
      accepted++;
      const glb = await view(model.id, cookie);
      expect(glb.statusCode, file).toBe(200);
      expect(glb.rawPayload.subarray(0, 4).toString('latin1'), file).toBe('glTF');
    }
    expect(accepted).toBeGreaterThan(20);
  }, 120_000);
});
