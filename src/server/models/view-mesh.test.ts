import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { describe, expect, it, vi } from 'vitest';
import { box, triangles, uvSphere } from '../../mesh/testing/generate.ts';
import { viewFactsOf } from './view-facts.ts';
import { buildViewMesh, MAX_CACHE_VALENCE, weldSoup } from './view-mesh.ts';

// The viewer's GLB: what it holds once decoded as a browser would (meshopt), and when it is simplified.

async function decode(glb: Uint8Array) {
  await MeshoptDecoder.ready;
  const io = new NodeIO()
    .registerExtensions([EXTMeshoptCompression])
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const doc = await io.readBinary(glb);
  const primitives = doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives());
  expect(primitives).toHaveLength(1);
  const position = primitives[0]!.getAttribute('POSITION')!;
  return {
    extensions: doc
      .getRoot()
      .listExtensionsUsed()
      .map((e) => e.extensionName),
    triangles: primitives[0]!.getIndices()!.getCount() / 3,
    extras: doc.getRoot().getExtras(),
    min: position.getMin([0, 0, 0]),
    max: position.getMax([0, 0, 0]),
  };
}

describe('the view mesh', () => {
  it('holds a small model exactly: welded, meshopt-compressed, the same size', async () => {
    const view = await buildViewMesh(Float32Array.from(triangles(box(10, 20, 30, 5, 0, 0))));
    expect(new TextDecoder().decode(view.glb.subarray(0, 4))).toBe('glTF');
    expect(view).toMatchObject({ triangles: 12, simplified: false });
    const decoded = await decode(view.glb);
    expect(decoded.extras).toEqual({ simplified: false });
    expect(decoded.extensions).toContain('EXT_meshopt_compression');
    expect(decoded.triangles).toBe(12);
    expect(decoded.min).toEqual([5, 0, 0]);
    expect(decoded.max).toEqual([15, 20, 30]);
  });

  it('simplifies a model above the limit, keeping its shape', async () => {
    const sphere = Float32Array.from(triangles(uvSphere(50, 400, 200)));
    expect(sphere.length / 9).toBeGreaterThan(150_000);
    const view = await buildViewMesh(sphere, 20_000);
    expect(view.simplified).toBe(true);
    expect(viewFactsOf(view.glb)).toEqual({ simplified: true });
    expect(view.triangles).toBeLessThanOrEqual(20_000);
    expect(view.triangles).toBeGreaterThan(10_000);
    const decoded = await decode(view.glb);
    expect(decoded.triangles).toBe(view.triangles);
    for (let i = 0; i < 3; i++) {
      expect(decoded.min[i]).toBeCloseTo(-50, 0);
      expect(decoded.max[i]).toBeCloseTo(50, 0);
    }
    // Far smaller than the file it stands for (36 bytes a triangle in the soup).
    expect(view.glb.length).toBeLessThan(20_000 * 12);
  });

  it('says it was simplified only when the simplifier took triangles off, in the GLB itself', async () => {
    const sphere = Float32Array.from(triangles(uvSphere(50, 120, 60)));
    const count = sphere.length / 9;
    // A few faces that draw nothing (two corners the same, a repeat) are left out: not simplified.
    const withDegenerate = new Float32Array([
      ...sphere,
      ...[0, 0, 0, 0, 0, 0, 1, 1, 1],
      ...[5, 5, 5, 5, 5, 5, 5, 5, 5],
      ...sphere.subarray(0, 18),
    ]);
    const kept = await buildViewMesh(withDegenerate, count);
    expect(kept).toMatchObject({ triangles: count, simplified: false });
    expect((await decode(kept.glb)).extras).toEqual({ simplified: false });
    expect(viewFactsOf(kept.glb)).toEqual({ simplified: false });
    // One triangle over the limit: the simplifier runs and says so.
    const cut = await buildViewMesh(sphere, count - 1);
    expect(cut.simplified).toBe(true);
    expect(cut.triangles).toBeLessThan(count);
    expect((await decode(cut.glb)).extras).toEqual({ simplified: true });
    expect(viewFactsOf(cut.glb)).toEqual({ simplified: true });
  });

  it('leaves out triangles that collapse to a line or a point, and refuses a model with none left', async () => {
    const soup = new Float32Array([
      ...triangles(box(1, 1, 1)),
      ...[0, 0, 0, 0, 0, 0, 1, 1, 1], // two corners the same
      ...[2, 2, 2, 2, 2, 2, 2, 2, 2], // a point
    ]);
    expect(weldSoup(soup).indices.length / 3).toBe(12);
    await expect(buildViewMesh(new Float32Array([1, 1, 1, 1, 1, 1, 2, 2, 2]))).rejects.toThrow(
      /no triangles/,
    );
  });

  it('keeps one of each repeated triangle (however its corners are listed), and both faces of a sheet', async () => {
    const one = triangles(box(200, 200, 200));
    // The corners of a triangle listed from another corner: the same triangle.
    const rotated = Float64Array.from(one);
    for (let t = 0; t < rotated.length; t += 9) {
      rotated.set([...one.subarray(t + 3, t + 9), ...one.subarray(t, t + 3)], t);
    }
    const soup = new Float64Array(one.length * 2000);
    for (let c = 0; c < 2000; c++) soup.set(c % 2 ? rotated : one, c * one.length);
    expect(weldSoup(soup).indices.length / 3).toBe(12);
    // The same triangle facing the other way is another face.
    const flipped = Float64Array.from(one);
    for (let t = 0; t < flipped.length; t += 9) {
      flipped.set(
        [...one.subarray(t + 3, t + 6), ...one.subarray(t, t + 3), ...one.subarray(t + 6, t + 9)],
        t,
      );
    }
    expect(weldSoup(Float64Array.from([...one, ...flipped])).indices.length / 3).toBe(24);
    // 24,000 triangles of repeats (the preview-budget test's kind of file) still make a view at once.
    expect((await buildViewMesh(soup)).triangles).toBe(12);
  });

  it('does not optimise for the vertex cache around a vertex with thousands of triangles (its time grows with the square)', async () => {
    const fan = (n: number) => {
      const soup = new Float32Array(9 * n);
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        const b = (2 * Math.PI * (i + 1)) / n;
        soup.set(
          [0, 0, 10, 10 * Math.cos(a), 10 * Math.sin(a), 0, 10 * Math.cos(b), 10 * Math.sin(b), 0],
          9 * i,
        );
      }
      return soup;
    };
    const reorder = vi.spyOn(MeshoptEncoder, 'reorderMesh');
    try {
      expect((await buildViewMesh(fan(MAX_CACHE_VALENCE))).triangles).toBe(MAX_CACHE_VALENCE);
      expect(reorder.mock.lastCall?.[1]).toBe(true);
      expect((await buildViewMesh(fan(30_000))).triangles).toBe(30_000);
      expect(reorder.mock.lastCall?.[1]).toBe(false);
    } finally {
      reorder.mockRestore();
    }
  });
});
