import { describe, expect, it } from 'vitest';
import { analyzeMesh, createMeshAnalyzer } from './analysis.ts';
import { exactVolume6 } from './testing/exact.ts';
import {
  box,
  inverted,
  merged,
  sphereArea,
  sphereVolume,
  toAsciiStl,
  toBinaryStl,
  toFloat32,
  toObj,
  torus,
  torusArea,
  torusVolume,
  translated,
  triangles,
  uvSphere,
  withoutFace,
} from './testing/generate.ts';
import type { MeshAnalysis } from './types.ts';

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

/** The same mesh as binary STL, ASCII STL and OBJ. */
function allFormats(mesh: Parameters<typeof triangles>[0]): MeshAnalysis[] {
  const tris = triangles(mesh);
  return [
    analyzeMesh(toBinaryStl(tris), 'stl'),
    analyzeMesh(toAsciiStl(tris), 'stl'),
    analyzeMesh(toObj(mesh), 'obj'),
  ];
}

describe('analysis of generated models', () => {
  it('measures a cube exactly in every format', () => {
    for (const a of allFormats(box(10, 20, 30, 5, -5, 0))) {
      expect(a.volumeCm3).toBe(6);
      expect(a.areaCm2).toBe(22);
      expect(a.dimensions).toEqual({ x: 10, y: 20, z: 30 });
      expect(a).toMatchObject({ watertight: true, openEdges: 0, nonManifoldEdges: 0, degenerateFaces: 0 });
    }
  });

  it('measures a finely tessellated sphere within 0.5 % of 4/3 pi r^3 and 4 pi r^2', () => {
    for (const a of allFormats(uvSphere(25, 128, 64))) {
      expect(relative(a.volumeCm3 * 1000, sphereVolume(25))).toBeLessThan(0.005);
      expect(relative(a.areaCm2 * 100, sphereArea(25))).toBeLessThan(0.005);
      expect(a.dimensions.z).toBeCloseTo(50, 4);
      expect(a.watertight).toBe(true);
    }
  });

  it('measures a torus within 0.5 % of 2 pi^2 R r^2', () => {
    for (const a of allFormats(torus(30, 8, 160, 64))) {
      expect(relative(a.volumeCm3 * 1000, torusVolume(30, 8))).toBeLessThan(0.005);
      expect(relative(a.areaCm2 * 100, torusArea(30, 8))).toBeLessThan(0.005);
      expect(a.dimensions.x).toBeCloseTo(76, 3);
      expect(a.watertight).toBe(true);
    }
  });

  it('counts the open edges of a cube with a missing face', () => {
    for (const a of allFormats(withoutFace(box(10, 10, 10), 1))) {
      expect(a).toMatchObject({ triangles: 10, watertight: false, openEdges: 4, nonManifoldEdges: 0 });
    }
  });

  it('counts edges shared by more than two faces', () => {
    // Two cubes touching along one edge: that edge has four faces.
    for (const a of allFormats(merged(box(1, 1, 1), box(1, 1, 1, 1, 1, 0)))) {
      expect(a).toMatchObject({ watertight: false, openEdges: 0, nonManifoldEdges: 1 });
      expect(a.volumeCm3).toBeCloseTo(0.002, 15);
    }
  });

  it('gives a positive volume for a model with inverted normals', () => {
    for (const a of allFormats(inverted(box(10, 10, 10)))) {
      expect(a.volumeCm3).toBe(1);
      expect(a.watertight).toBe(true);
    }
  });

  it('reports inch-sized and oversized models as they are (the server warns)', () => {
    const small = analyzeMesh(toBinaryStl(triangles(box(2, 1, 0.5))), 'stl');
    expect(small.dimensions).toEqual({ x: 2, y: 1, z: 0.5 });
    expect(small.volumeCm3).toBe(0.001);
    const big = analyzeMesh(toBinaryStl(triangles(box(300, 300, 300))), 'stl');
    expect(big.dimensions).toEqual({ x: 300, y: 300, z: 300 });
    expect(big.volumeCm3).toBe(27000);
  });

  it('does not depend on where the model sits', () => {
    const far = allFormats(translated(box(10, 10, 10), 10000, -20000, 5000));
    for (const a of far) expect(relative(a.volumeCm3, 1)).toBeLessThan(1e-12);
  });

  it('sums the volume within 1e-9 of the exact value for 200 000 triangles', () => {
    const tris = toFloat32(triangles(translated(uvSphere(40, 400, 251), 100, 50, 20)));
    const exact = Math.abs(exactVolume6(tris)) / 6000;
    const a = analyzeMesh(toBinaryStl(tris), 'stl');
    expect(a.triangles).toBe(200_000);
    expect(relative(a.volumeCm3, exact)).toBeLessThan(1e-9);
  });

  it('can skip the topology check (for measuring its cost)', () => {
    const bytes = toBinaryStl(triangles(withoutFace(box(10, 10, 10), 0)));
    const a = analyzeMesh(bytes, 'stl', { topology: false });
    expect(a).toMatchObject({ volumeCm3: expect.any(Number), watertight: false, openEdges: 0 });
    expect(analyzeMesh(bytes, 'stl').openEdges).toBe(4);
  });

  it('keeps the triangles of small models for the preview, and gives up past the cap', () => {
    const tris = triangles(box(10, 10, 10));
    for (const format of ['stl-binary', 'stl-ascii', 'obj'] as const) {
      const bytes =
        format === 'stl-binary'
          ? toBinaryStl(tris)
          : format === 'stl-ascii'
            ? toAsciiStl(tris)
            : toObj(box(10, 10, 10));
      const analyzer = createMeshAnalyzer(format, { collectTriangles: 100 });
      analyzer.push(bytes);
      analyzer.finish();
      expect(Array.from(analyzer.previewTriangles()!).sort()).toEqual(
        Array.from(Float32Array.from(tris)).sort(),
      );
      const capped = createMeshAnalyzer(format, { collectTriangles: 11 });
      capped.push(bytes);
      capped.finish();
      expect(capped.previewTriangles()).toBeNull();
    }
  });

  it('refuses to be fed after finishing', () => {
    const analyzer = createMeshAnalyzer('stl-binary');
    analyzer.push(toBinaryStl(triangles(box(1, 1, 1))));
    analyzer.finish();
    expect(() => analyzer.push(new Uint8Array(1))).toThrow();
  });
});
