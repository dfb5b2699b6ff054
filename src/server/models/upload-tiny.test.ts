import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box, type IndexedMesh } from '../../mesh/testing/generate.ts';
import { simple3mf } from '../../mesh/testing/threemf.ts';
import { modelPayload } from '../../shared/models.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { findModel } from './models-repository.ts';
import { boxStl, cookieFrom, uploadRequest } from './testing.ts';

// A closed model is accepted however small, and judged by the same rule however big (docs/domain.md): "no
// volume" is measured against the model's own size (src/mesh/encloses-volume.ts), through the real worker.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const NO_VOLUME =
  'This model encloses no volume (it is a flat or open surface), so there is nothing to print.';
const sheet: IndexedMesh = { vertices: [0, 0, 0, 1, 0, 0, 1, 1, 0.5, 0, 1, 0.5], faces: [[0, 1, 2, 3]] };
const in3mf = (unit: string, mesh: IndexedMesh) =>
  simple3mf({ unit, objects: [{ id: 1, mesh }], build: [{ objectid: 1 }] });

describe('POST /api/uploads at the ends of the scale', () => {
  it('accepts a 3MF cube of 1 µm with its size, a preview and a view', async () => {
    const res = await t.app.inject(
      uploadRequest({ fileName: 'micro.3mf', bytes: in3mf('micron', box(1, 1, 1)) }),
    );
    expect(res.statusCode).toBe(201);
    const body = modelPayload.parse(res.json());
    expect(body).toMatchObject({
      format: '3mf',
      watertight: true,
      dimensions: { x: 0.001, y: 0.001, z: 0.001 },
      // The file says its unit, so no inches question.
      warnings: [],
    });
    // 1e-12 cm³ (1e-9 mm³), kept to 6 significant digits rather than rounded to 0, so the card can say so.
    expect(body.volumeCm3).toBeCloseTo(1e-12, 17);
    expect(body.volumeCm3).toBeGreaterThan(0);
    const headers = { cookie: cookieFrom(res) };
    expect((await t.app.inject({ url: `/api/models/${body.id}/view.glb`, headers })).statusCode).toBe(200);
    expect((await findModel(t.database.db, body.id))?.previewKey).toBeTruthy();
  });

  it('accepts an STL cube of 0.001 mm, asking whether it was drawn in inches', async () => {
    const res = await t.app.inject(
      uploadRequest({ fileName: 'micro.stl', bytes: boxStl(0.001, 0.001, 0.001) }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().warnings.map((w: { code: string }) => w.code)).toEqual(['maybe_inches']);
  });

  it('accepts a 3MF cube of 1 m, too big for the printer', async () => {
    const res = await t.app.inject(
      uploadRequest({ fileName: 'metre.3mf', bytes: in3mf('meter', box(1, 1, 1)) }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      volumeCm3: 1e6,
      dimensions: { x: 1000, y: 1000, z: 1000 },
      fits: false,
    });
  });

  it('refuses a flat sheet drawn in microns or metres with the same words', async () => {
    for (const unit of ['micron', 'meter']) {
      const res = await t.app.inject(uploadRequest({ fileName: 'sheet.3mf', bytes: in3mf(unit, sheet) }));
      expect(res.statusCode, unit).toBe(422);
      expect(res.json().error, unit).toBe(NO_VOLUME);
    }
  });
});
