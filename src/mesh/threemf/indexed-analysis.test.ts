// analyse3mf measures placed meshes from their vertices and indices (scene.ts measureInstances); the
// reference emits every triangle as a soup and welds its corners (testing/soup-analysis.ts, the analysis
// before issue #27 part 2). On random models (a small grid, so that vertices repeat and faces touch,
// unused and duplicate vertices, repeated indices, mirrored and repeated instances, coordinates that
// leave the range only after a transform) both give the same answer or the same error, bit for bit.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { box, merged, triangles as soupOf, translated, uvSphere } from '../testing/generate.ts';
import { analyse3mfBySoup } from '../testing/soup-analysis.ts';
import type { MeshObject } from './model-part.ts';
import { analyse3mf, type ThreeMfModel } from './read.ts';
import { emitInstances, type Instance } from './scene.ts';

function model(instances: Instance[], unit = 'millimeter'): ThreeMfModel {
  let triangles = 0;
  for (const i of instances) triangles += i.mesh.triangles.length / 3;
  return { instances, triangles, unit, emit: (sink) => emitInstances(instances, sink) };
}

function place(mesh: MeshObject, transform: number[]): Instance {
  const m = Float64Array.from(transform);
  const det =
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) -
    m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) +
    m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  return { mesh, transform: m, mirrored: det < 0 };
}

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (e) {
    if (e instanceof MeshError) return { code: e.code, message: e.message };
    throw e;
  }
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

const meshArb = fc
  .record({
    vertices: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 9, maxLength: 60 }),
    faces: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 40 }),
  })
  .map(({ vertices, faces }): MeshObject => {
    const n = Math.floor(vertices.length / 3);
    return {
      kind: 'mesh',
      vertices: Float64Array.from(vertices.slice(0, 3 * n), (x) => x * 1.5),
      triangles: Int32Array.from(faces.flatMap(([a, b, c]) => [a % n, b % n, c % n])),
    };
  });

const transformArb = fc.oneof(
  fc.constant(IDENTITY as number[]),
  fc.constant([-1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 0, 0] as number[]),
  fc.constant([0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0.5] as number[]),
  fc.constant([1e37, 0, 0, 0, 1e37, 0, 0, 0, 1e37, 0, 0, 0] as number[]),
  fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 12, maxLength: 12 }),
);

describe('analyse3mf from indices', () => {
  it('gives the soup analysis, bit for bit, on random models', () => {
    fc.assert(
      fc.property(
        fc.array(meshArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), transformArb), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (meshes, placements, topology) => {
          const m = model(placements.map(([k, t]) => place(meshes[k % meshes.length]!, t)));
          const options = { topology, collectTriangles: 50 };
          const fast = outcome(() => analyse3mf(m, options));
          const soup = outcome(() => analyse3mfBySoup(m, options));
          expect(fast).toEqual(soup);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the soup analysis on closed shells: nested, inverted, touching, mirrored, in inches', () => {
    const mesh = (from: { vertices: number[]; faces: number[][] }): MeshObject => {
      const tris = soupOf(from);
      // Indexed again through the mesh's own vertex list: fan triangles of its polygons.
      const t: number[] = [];
      for (const f of from.faces) for (let k = 1; k + 1 < f.length; k++) t.push(f[0]!, f[k]!, f[k + 1]!);
      expect(t.length * 3).toBe(tris.length);
      return { kind: 'mesh', vertices: Float64Array.from(from.vertices), triangles: Int32Array.from(t) };
    };
    const cube = mesh(box(10, 10, 10));
    const inner = mesh(box(4, 4, 4, 3, 3, 3));
    const sphere = mesh(uvSphere(20, 40, 20));
    const touching = mesh(merged(box(10, 10, 10), translated(box(10, 10, 10), 10, 10, 0)));
    const mirror = [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    const cases: Instance[][] = [
      [
        place(cube, IDENTITY),
        place(
          inner,
          mirror.map((x, k) => (k === 9 ? 10 : x)),
        ),
      ],
      [place(sphere, IDENTITY), place(sphere, [0.25, 0, 0, 0, 0.25, 0, 0, 0, -0.25, 0, 0, 0])],
      [place(touching, IDENTITY)],
      [place(touching, mirror)],
      [place(cube, IDENTITY), place(cube, IDENTITY)],
    ];
    for (const instances of cases) {
      for (const unit of ['millimeter', 'inch']) {
        const m = model(instances, unit);
        const fast = analyse3mf(m, { collectTriangles: 10_000 });
        expect(fast.analysis.triangles).toBeGreaterThan(0);
        expect(fast).toEqual(analyse3mfBySoup(m, { collectTriangles: 10_000 }));
      }
    }
  });
});
