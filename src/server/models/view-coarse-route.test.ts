import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/testing/generate.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { extrasSettled } from './extras-service.ts';
import { findModel } from './models-repository.ts';
import { boxStl, cookieFrom, makeUser, meshStl, uploadRequest } from './testing.ts';
import { COARSE_VIEW_TRIANGLES } from './view-mesh.ts';

// GET /api/models/:id/view-coarse.glb: a big upload's coarse view while its view mesh is being made; 204 when
// there is none; the model's own access rules.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(async () => {
  await extrasSettled();
  await t.close();
});

const coarse = (id: string, cookie?: string) =>
  t.app.inject({ url: `/api/models/${id}/view-coarse.glb`, headers: cookie ? { cookie } : {} });

async function upload(fileName: string, bytes: Uint8Array) {
  const res = await t.app.inject(uploadRequest({ fileName, bytes }));
  expect(res.statusCode).toBe(201);
  return { id: (res.json() as { id: string }).id, cookie: cookieFrom(res) };
}

describe('the coarse view route', () => {
  it('answers 204 for a model whose view mesh is stored, and 404 to anyone else', async () => {
    const { id, cookie } = await upload('box.stl', boxStl(20, 30, 40));
    const res = await coarse(id, cookie);
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const stranger = await makeUser(t);
    for (const other of [undefined, stranger.cookie]) expect((await coarse(id, other)).statusCode).toBe(404);
    expect((await coarse('m_doesNotExist0000000000', cookie)).statusCode).toBe(404);
  });

  it("answers a big model's coarse view right after its upload, until its view mesh is stored", async () => {
    const { id, cookie } = await upload('big.stl', meshStl(uvSphere(30, 800, 201)));
    const res = await coarse(id, cookie);
    if (res.statusCode === 200) {
      expect(res.headers['content-type']).toBe('model/gltf-binary');
      expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
      expect(Number(res.headers['x-view-triangles'])).toBeLessThanOrEqual(COARSE_VIEW_TRIANGLES);
    } else {
      // A very quick full view was stored first: then there is nothing coarse to give.
      expect(res.statusCode).toBe(204);
      expect((await findModel(t.database.db, id))?.viewKey).toBeTruthy();
    }
    await extrasSettled();
    expect((await coarse(id, cookie)).statusCode).toBe(204);
    expect((await findModel(t.database.db, id))?.viewKey).toBeTruthy();
  }, 60_000);
});
