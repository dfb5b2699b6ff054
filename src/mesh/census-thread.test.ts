// The edge census of big meshes on the helper thread (census-thread.ts): the same counts and marks as made
// here, the same analyses, and a helper that fails is retired and the census made here.

import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import {
  censusElsewhere,
  censusesHanded,
  censusHelperReady,
  censusHere,
  HELPER_FACES,
  sharedInt32,
  sharedUint8,
  startCensusHelper,
} from './census-thread.ts';
import { edgeCensus } from './edge-census.ts';
import {
  type IndexedMesh,
  merged,
  toBinaryStl,
  toObj,
  triangles,
  uvSphere,
  withoutFace,
} from './testing/generate.ts';
import { bigSphere3mf } from './testing/threemf.ts';
import type { MeshObject } from './threemf/model-part.ts';
import { analyse3mf, read3mf, type ThreeMfModel } from './threemf/read.ts';
import { emitInstances, type Instance } from './threemf/scene.ts';

async function helperReady(): Promise<void> {
  startCensusHelper();
  for (let k = 0; k < 300 && !censusHelperReady(); k++) await new Promise((f) => setTimeout(f, 20));
  expect(censusHelperReady()).toBe(true);
}

/**
 * Faces of a big mesh with every kind of edge: a sphere (closed), a copy of some of its faces (edges of
 * three and four faces), and faces left out (open edges).
 */
function bigFaces(): { faces: Int32Array; faceCount: number; vertexCount: number } {
  const sphere = uvSphere(10, 300, 200);
  const list = sphere.faces.flatMap((f) =>
    f.length === 3
      ? [f]
      : [
          [f[0]!, f[1]!, f[2]!],
          [f[0]!, f[2]!, f[3]!],
        ],
  );
  const kept = list.filter((_, k) => k % 997 !== 5);
  for (let k = 0; k < list.length; k += 1009) kept.push(list[k]!);
  const faces = sharedInt32(3 * kept.length);
  for (const [k, f] of kept.entries()) faces.set(f, 3 * k);
  return { faces, faceCount: kept.length, vertexCount: sphere.vertices.length / 3 };
}

/** Analyses model with the helper (once handed to it), then without it (never handed): the same answer. */
function expectSameWithAndWithoutHelper(model: ThreeMfModel): void {
  censusHere(false);
  const handed = censusesHanded();
  const withHelper = analyse3mf(model);
  expect(censusesHanded()).toBe(handed + 1);
  censusHere(true);
  const without = analyse3mf(model);
  expect(censusesHanded()).toBe(handed + 1);
  censusHere(false);
  expect(withHelper.analysis.triangles).toBeGreaterThanOrEqual(HELPER_FACES);
  expect(withHelper).toEqual(without);
}

describe('the census helper', () => {
  beforeAll(helperReady, 30_000);

  it('counts the edges and marks the vertices of a big mesh as the census here does', () => {
    const { faces, faceCount, vertexCount } = bigFaces();
    expect(faceCount).toBeGreaterThanOrEqual(HELPER_FACES);
    const marks = sharedUint8(vertexCount);
    const pending = censusElsewhere(faces, faceCount, vertexCount, marks);
    expect(pending).not.toBeNull();
    const there = pending!.wait();
    const hereMarks = new Uint8Array(vertexCount);
    const here = edgeCensus(faces.slice(), faceCount, vertexCount, hereMarks);
    expect(there).toEqual(here);
    expect(here.openEdges).toBeGreaterThan(0);
    expect(here.nonManifoldEdges).toBeGreaterThan(0);
    expect(Buffer.from(marks).equals(Buffer.from(hereMarks))).toBe(true);
  });

  it('is not asked for small meshes, or faces that are not shared', () => {
    const { faces, faceCount, vertexCount } = bigFaces();
    expect(censusElsewhere(faces, HELPER_FACES - 1, vertexCount, sharedUint8(vertexCount))).toBeNull();
    expect(censusElsewhere(faces.slice(), faceCount, vertexCount, sharedUint8(vertexCount))).toBeNull();
    expect(censusElsewhere(faces, faceCount, vertexCount, new Uint8Array(vertexCount))).toBeNull();
  });

  it('gives big 3MF models the analysis made without it: open, touching, nested and mirrored shells', () => {
    const meshOf = (m: IndexedMesh): MeshObject => ({
      kind: 'mesh',
      vertices: Float64Array.from(m.vertices),
      triangles: Int32Array.from(
        m.faces.flatMap((f) => (f.length === 3 ? f : [f[0]!, f[1]!, f[2]!, f[0]!, f[2]!, f[3]!])),
      ),
    });
    const sphere = uvSphere(20, 260, 200);
    const place = (mesh: MeshObject, t: number[], mirrored = false): Instance => ({
      mesh,
      transform: Float64Array.from(t),
      mirrored,
    });
    const at = (x: number) => [1, 0, 0, 0, 1, 0, 0, 0, 1, x, 0, 0];
    const cases: Instance[][] = [
      [place(meshOf(withoutFace(sphere, 1000)), at(0))],
      [place(meshOf(sphere), at(0)), place(meshOf(sphere), at(40))],
      [place(meshOf(merged(sphere, uvSphere(5, 250, 200))), at(0))],
      [place(meshOf(sphere), [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], true), place(meshOf(sphere), at(100))],
    ];
    for (const instances of cases) {
      let triangleCount = 0;
      for (const i of instances) triangleCount += i.mesh.triangles.length / 3;
      const model: ThreeMfModel = {
        instances,
        triangles: triangleCount,
        unit: 'millimeter',
        emit: (sink) => emitInstances(instances, sink),
      };
      expectSameWithAndWithoutHelper(model);
    }
  }, 60_000);

  it('is not asked for an STL or OBJ model: their census is made here', () => {
    const sphere = uvSphere(20, 260, 200);
    const handed = censusesHanded();
    expect(analyzeMesh(toBinaryStl(triangles(sphere)), 'stl')).toMatchObject({ watertight: true });
    expect(analyzeMesh(toObj(sphere), 'obj')).toMatchObject({ watertight: true });
    expect(censusesHanded()).toBe(handed);
  }, 60_000);

  it('gives a big 3MF model the analysis made without it, the census begun before its geometry', async () => {
    expectSameWithAndWithoutHelper(await read3mf(bigSphere3mf(300, 200, 'bambu')));
  }, 60_000);

  // Last: a helper that fails is retired for good in this thread.
  it('makes the census here when the helper fails, and retires it', () => {
    const { faces, faceCount, vertexCount } = bigFaces();
    // A vertex count no array can have: the helper's census throws at once.
    const pending = censusElsewhere(faces, faceCount, -5, sharedUint8(vertexCount));
    expect(pending).not.toBeNull();
    expect(pending!.wait()).toBeNull();
    expect(censusHelperReady()).toBe(false);
    expect(censusElsewhere(faces, faceCount, vertexCount, sharedUint8(vertexCount))).toBeNull();
    // The analysis of a big model is still whole.
    const closed = analyzeMesh(toBinaryStl(triangles(uvSphere(20, 260, 200))), 'stl');
    expect(closed).toMatchObject({ watertight: true, openEdges: 0, shells: 1 });
  });
});
