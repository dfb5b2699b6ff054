import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelListPayload } from '../../shared/models.ts';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { boxStl, cookieFrom, makeUser, uploadRequest } from './testing.ts';

// GET /api/models lists the caller's models on any device; DELETE /api/models/:id takes one off the list.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const list = async (cookie?: string) => {
  const res = await t.app.inject({ url: '/api/models', headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toContain('no-store');
  return modelListPayload.parse(res.json()).models;
};
const upload = async (name: string, size: number, cookie?: string) => {
  const res = await t.app.inject(uploadRequest({ fileName: name, bytes: boxStl(size, size, size) }, cookie));
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
};
const remove = (id: string, cookie?: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/models/${id}`,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
  });

describe('the caller’s models', () => {
  it('lists an account’s uploads, newest first, with prices and previews, on any device', async () => {
    const user = await makeUser(t);
    const first = await upload('first.stl', 10, user.cookie);
    const second = await upload('second.stl', 12, user.cookie);
    // A second session of the same account (another device) sees the same list.
    const models = await list(user.cookie);
    expect(models.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(models[0]).toMatchObject({
      fileName: 'second.stl',
      previewImage: `/api/models/${second.id}/preview.png`,
    });
    expect(models[0]!.prices).toBeDefined();
  });

  it('lists a visitor’s uploads by the browser’s cookie, and nothing for a browser without one', async () => {
    const res = await t.app.inject(uploadRequest({ fileName: 'visitor.stl', bytes: boxStl(8, 8, 8) }));
    const visitor = cookieFrom(res);
    expect((await list(visitor)).map((m) => m.fileName)).toEqual(['visitor.stl']);
    expect(await list()).toEqual([]);
    expect(await list('visitor=not-a-real-cookie')).toEqual([]);
  });

  it('never lists another customer’s models', async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await upload('a-only.stl', 9, a.cookie);
    expect((await list(b.cookie)).map((m) => m.fileName)).not.toContain('a-only.stl');
  });

  it('lists a rescaled model in place of its original, and the original again when scaled back', async () => {
    const user = await makeUser(t);
    const original = await upload('inches.stl', 2, user.cookie);
    const scale = (id: string, factor: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/models/${id}/scale`,
        headers: { cookie: user.cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ factor }),
      });
    const scaled = (await scale(original.id, 25.4)).json() as { id: string };
    expect((await list(user.cookie)).map((m) => m.id)).toEqual([scaled.id]);
    const back = (await scale(scaled.id, 1 / 25.4)).json() as { id: string };
    expect(back.id).toBe(original.id);
    expect((await list(user.cookie)).map((m) => m.id)).toEqual([original.id]);
  });

  it('removes a model from the owner’s list only; it can still be read (a cart may name it)', async () => {
    const user = await makeUser(t);
    const kept = await upload('kept.stl', 11, user.cookie);
    const gone = await upload('gone.stl', 13, user.cookie);
    const stranger = await makeUser(t);
    expect((await remove(gone.id, stranger.cookie)).statusCode).toBe(404);
    expect((await remove(gone.id)).statusCode).toBe(404);
    expect((await list(user.cookie)).map((m) => m.id)).toEqual([gone.id, kept.id]);
    expect((await remove(gone.id, user.cookie)).statusCode).toBe(204);
    expect((await list(user.cookie)).map((m) => m.id)).toEqual([kept.id]);
    const read = await t.app.inject({ url: `/api/models/${gone.id}`, headers: { cookie: user.cookie } });
    expect(read.statusCode).toBe(200);
    // Uploading the same file again brings it back.
    await upload('gone.stl', 13, user.cookie);
    expect((await list(user.cookie)).map((m) => m.fileName)).toEqual(['gone.stl', 'kept.stl']);
  });

  it('refuses a removal from another site (403) and answers 405 to other methods', async () => {
    const user = await makeUser(t);
    const model = await upload('csrf.stl', 7, user.cookie);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/models/${model.id}`,
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect((await list(user.cookie)).map((m) => m.id)).toContain(model.id);
    const put = await t.app.inject({ method: 'PUT', url: '/api/models', headers: { origin: TEST_ORIGIN } });
    expect(put.statusCode).toBe(405);
  });
});
