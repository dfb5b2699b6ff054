import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { box, uvSphere } from '../../mesh/testing/generate.ts';
import { bambu3mf, modelXml, package3mf, scaleMove, simple3mf } from '../../mesh/testing/threemf.ts';
import { modelPayload } from '../../shared/models.ts';
import { models } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { boxStl, cookieFrom, filesIn, uploadRequest } from './testing.ts';

// 3MF uploads through the whole route and the real analysis worker: the same analysis, preview, view mesh
// and prices as STL and OBJ; and a bad 3MF is a 422 with its reason that keeps nothing.

let t: TestApp;
let filesDir: string;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  filesDir = path.join(t.dataDir, 'files');
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.database.db.delete(models);
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('POST /api/uploads with a 3MF file', () => {
  it('analyses a Bambu Studio style plate: objects in other parts, placed by the build', async () => {
    const bytes = bambu3mf([
      { mesh: box(100, 100, 100), transform: scaleMove(1, 28, 28, 0) },
      { mesh: uvSphere(10, 32, 16), transform: scaleMove(1, 200, 200, 10) },
    ]);
    const res = await t.app.inject(uploadRequest({ fileName: 'Plate 1.3mf', bytes }));
    expect(res.statusCode).toBe(201);
    const body = modelPayload.parse(res.json());
    expect(body).toMatchObject({
      fileName: 'Plate 1.3mf',
      format: '3mf',
      watertight: true,
      fits: true,
      warnings: [],
    });
    expect(body.triangles).toBe(12 + 32 * 14 * 2 + 64);
    // The plate spans both objects: 28..210 mm along x and y.
    expect(body.dimensions).toEqual({ x: 182, y: 182, z: 100 });
    expect(body.volumeCm3).toBeGreaterThan(1004);
    expect(body.volumeCm3).toBeLessThan(1004.2);
    // File, preview and view mesh stored, as for any model.
    expect(filesIn(filesDir)).toHaveLength(3);
    const headers = { cookie: cookieFrom(res) };
    const preview = await t.app.inject({ url: body.previewImage!, headers });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    const view = await t.app.inject({ url: `/api/models/${body.id}/view.glb`, headers });
    expect(view.statusCode).toBe(200);
    expect(view.headers['x-view-triangles']).toBe(String(body.triangles));
  });

  it('prices a 3MF exactly as the same box in an STL', async () => {
    const fromStl = await t.app.inject(uploadRequest({ fileName: 'cube.stl', bytes: boxStl(40, 30, 20) }));
    const from3mf = await t.app.inject(
      uploadRequest({
        fileName: 'cube.3mf',
        bytes: simple3mf({ objects: [{ id: 1, mesh: box(40, 30, 20) }], build: [{ objectid: 1 }] }),
      }),
    );
    expect(from3mf.json().prices).toEqual(fromStl.json().prices);
    expect(from3mf.json().volumeCm3).toBe(fromStl.json().volumeCm3);
  });

  it('honours a file drawn in inches: its sizes are millimetres, no inches question', async () => {
    const bytes = simple3mf({
      unit: 'inch',
      objects: [{ id: 1, mesh: box(2, 1, 1) }],
      build: [{ objectid: 1 }],
    });
    const res = await t.app.inject(uploadRequest({ fileName: 'imperial.3mf', bytes }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ dimensions: { x: 50.8, y: 25.4, z: 25.4 }, warnings: [] });
    // A small 3MF part is small: the file said millimetres, so no inches question (an STL would get one).
    const small = await t.app.inject(
      uploadRequest({
        fileName: 'pin.3mf',
        bytes: simple3mf({ objects: [{ id: 1, mesh: box(5, 4, 3) }], build: [{ objectid: 1 }] }),
      }),
    );
    expect(small.json().warnings).toEqual([]);
    const asStl = await t.app.inject(uploadRequest({ fileName: 'pin.stl', bytes: boxStl(5, 4, 3) }));
    expect(asStl.json().warnings.map((w: { code: string }) => w.code)).toEqual(['maybe_inches']);
    // The parser's note is kept with the model.
    const [row] = await t.database.db.select().from(models).where(eq(models.fileName, 'imperial.3mf'));
    expect(row!.warnings).toEqual([
      'This 3MF file is drawn in inches: its sizes were converted to millimetres.',
    ]);
  });
});

describe('POST /api/uploads: a bad 3MF is refused with its reason and keeps nothing', () => {
  const cube = box(20, 20, 20);
  it.each<[string, Uint8Array, RegExp]>([
    ['an STL renamed .3mf', boxStl(10, 10, 10), /^This file is named \.3mf but is not a 3MF file/],
    [
      'a ZIP bomb',
      package3mf(
        modelXml({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 1 }] }).replace(
          '<resources>',
          `<resources>${' '.repeat(8 << 20)}`,
        ),
      ),
      /it looks like a ZIP bomb, so we did not open it\.$/,
    ],
    [
      'an external entity',
      package3mf(
        modelXml({
          prolog: '<!DOCTYPE model [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
          objects: [{ id: 1, mesh: cube }],
          build: [{ objectid: 1 }],
        }),
      ),
      /DOCTYPE/,
    ],
    [
      'a model without a build',
      package3mf(modelXml({ objects: [{ id: 1, mesh: cube }], build: null })),
      /^This 3MF file has no build/,
    ],
    [
      'a build naming a missing object',
      package3mf(modelXml({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 4 }] })),
      /names object 4, which this 3MF file does not define/,
    ],
  ])('%s: 422', async (_what, bytes, message) => {
    const res = await t.app.inject(uploadRequest({ fileName: 'bad.3mf', bytes }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(message);
    expect(filesIn(filesDir)).toEqual([]);
    expect(filesIn(path.join(t.dataDir, 'tmp'))).toEqual([]);
    expect(await t.database.db.select().from(models)).toEqual([]);
  });
});
