import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/testing/generate.ts';
import { simple3mf } from '../../mesh/testing/threemf.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { cookieFrom, uploadRequest } from './testing.ts';

// The viewer's "Simplified for display" comes from the view route's X-View-Simplified, which says what the
// view mesh says of itself (view-facts.ts). A 3MF of 30,468 triangles, 4 of them with a corner twice (as
// exporters leave them), has a view of 30,464: fewer, yet nothing was simplified.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

describe('X-View-Simplified', () => {
  it('is 0 for a model under the limit whose view left out degenerate triangles', async () => {
    const sphere = uvSphere(20, 128, 120);
    const mesh = {
      vertices: sphere.vertices,
      faces: [...sphere.faces, [0, 0, 1], [1, 2, 2], [3, 4, 3], [5, 5, 5]],
    };
    const bytes = simple3mf({ objects: [{ id: 1, mesh }], build: [{ objectid: 1 }] });
    const res = await t.app.inject(uploadRequest({ fileName: 'Plate 1.3mf', bytes }));
    expect(res.statusCode).toBe(201);
    const body = res.json() as { id: string; triangles: number };
    expect(body.triangles).toBe(30_468);
    const view = await t.app.inject({
      url: `/api/models/${body.id}/view.glb`,
      headers: { cookie: cookieFrom(res) },
    });
    expect(view.statusCode).toBe(200);
    expect(view.headers['x-view-triangles']).toBe('30464');
    expect(view.headers['x-view-simplified']).toBe('0');
    expect(view.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(view.rawPayload.length).toBe(Number(view.headers['content-length']));
  });
});
