import { describe, expect, it } from 'vitest';
import { analyzeMesh, createMeshAnalyzer } from './analysis.ts';
import {
  box,
  type IndexedMesh,
  inverted,
  merged,
  toAsciiStl,
  toBinaryStl,
  toObj,
  translated,
  triangles,
  uvSphere,
  withoutFace,
} from './testing/generate.ts';
import { scaleMove, simple3mf } from './testing/threemf.ts';
import { analyse3mf, read3mf } from './threemf/read.ts';
import type { MeshAnalysis } from './types.ts';

// Each shell (connected component) of a model measured on its own (shells.ts, issue #23 §6): a shell wound
// inside out can no longer subtract itself from the others, in any format.

const FORMATS = ['binary STL', 'ASCII STL', 'OBJ', '3MF'] as const;

/** The same mesh in every format (3MF: one object placed once). */
async function allFormats(mesh: IndexedMesh): Promise<Array<[string, MeshAnalysis]>> {
  const tris = triangles(mesh);
  const threeMf = analyse3mf(
    await read3mf(simple3mf({ objects: [{ id: 1, mesh }], build: [{ objectid: 1 }] })),
  );
  const analyses = [
    analyzeMesh(toBinaryStl(tris), 'stl'),
    analyzeMesh(toAsciiStl(tris), 'stl'),
    analyzeMesh(toObj(mesh), 'obj'),
    threeMf.analysis,
  ];
  return analyses.map((a, k) => [FORMATS[k]!, a]);
}

async function expectEvery(mesh: IndexedMesh, expected: Partial<MeshAnalysis>, volumeCm3: number) {
  for (const [format, a] of await allFormats(mesh)) {
    expect({ ...a, label: format }).toMatchObject({ label: format, ...expected });
    expect([format, a.volumeCm3]).toEqual([format, expect.closeTo(volumeCm3, 9)]);
  }
}

/** Six times the signed volume of a mesh's triangles around a point. */
function signedVolume6(mesh: IndexedMesh, [ox, oy, oz]: number[]): number {
  const t = triangles(mesh);
  let sum = 0;
  for (let k = 0; k < t.length; k += 9) {
    const [ax, ay, az] = [t[k]! - ox, t[k + 1]! - oy, t[k + 2]! - oz];
    const [bx, by, bz] = [t[k + 3]! - ox, t[k + 4]! - oy, t[k + 5]! - oz];
    const [cx, cy, cz] = [t[k + 6]! - ox, t[k + 7]! - oy, t[k + 8]! - oz];
    sum += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return sum;
}

/** An L-shaped prism 40 x 40 x 10 mm (arms 10 mm wide): 7 cm3, one closed shell, not convex. */
function lPrism(): IndexedMesh {
  const outline = [
    [0, 0],
    [40, 0],
    [40, 10],
    [10, 10],
    [10, 40],
    [0, 40],
  ];
  const n = outline.length;
  const vertices = [
    ...outline.flatMap(([x, y]) => [x!, y!, 0]),
    ...outline.flatMap(([x, y]) => [x!, y!, 10]),
  ];
  const faces: number[][] = [
    [...Array(n).keys()].reverse(), // bottom, seen from below (a fan from vertex 0 stays inside the L)
    [...Array(n).keys()].map((k) => n + k), // top
  ];
  for (let k = 0; k < n; k++) faces.push([k, (k + 1) % n, n + ((k + 1) % n), n + k]);
  return { vertices, faces };
}

const cube10 = box(10, 10, 10); // 1 cm3

describe('shells measured one by one', () => {
  it('counts a separate inside-out cube in full and says it was corrected', async () => {
    // The probe, small: one cube plus a second, separate one wound inside out (was 0 cm3).
    await expectEvery(
      merged(cube10, inverted(box(10, 10, 10, 20, 0, 0))),
      { shells: 2, correctedShells: 1, voidShells: 0, watertight: true },
      2,
    );
  });

  it('takes off an inside-out cube enclosed by another: a hollow box, no correction', async () => {
    await expectEvery(
      merged(box(30, 30, 30), inverted(box(10, 10, 10, 10, 10, 10))),
      { shells: 2, correctedShells: 0, voidShells: 1, watertight: true },
      27 - 1,
    );
  });

  it('turns a whole model wound inside out outward', async () => {
    for (const mesh of [cube10, uvSphere(10, 24, 12)]) {
      const outward = await allFormats(mesh);
      for (const [k, [format, a]] of (await allFormats(inverted(mesh))).entries()) {
        const b = outward[k]![1];
        expect([format, a.shells, a.correctedShells]).toEqual([format, 1, 1]);
        expect(a.volumeCm3).toBeCloseTo(b.volumeCm3, 12);
        expect(b.correctedShells).toBe(0);
      }
    }
  });

  it('measures a hollow box wound inside out as outer minus inner, corrected', async () => {
    await expectEvery(
      inverted(merged(box(30, 30, 30), inverted(box(10, 10, 10, 10, 10, 10)))),
      { shells: 2, correctedShells: 2, voidShells: 1 },
      26,
    );
  });

  it('counts an island inside a void, and nested hollows, each by its depth', async () => {
    // 40 mm solid, a 30 mm void, a 20 mm island in it, a 10 mm void in the island: 64 - 27 + 8 - 1.
    const nested = merged(
      box(40, 40, 40),
      inverted(box(30, 30, 30, 5, 5, 5)),
      box(20, 20, 20, 10, 10, 10),
      inverted(box(10, 10, 10, 15, 15, 15)),
    );
    await expectEvery(nested, { shells: 4, correctedShells: 0, voidShells: 2 }, 44);
  });

  it('never counts intersecting or coincident cubes as less than the bigger one', async () => {
    const big = box(20, 20, 20); // 8 cm3
    // Outward and overlapping: both in full, as before.
    await expectEvery(
      merged(big, box(10, 10, 10, 15, 5, 5)),
      { shells: 2, correctedShells: 0, voidShells: 0 },
      9,
    );
    // An inside-out cube poking out of the big one: not enclosed, so a solid turned outward.
    await expectEvery(
      merged(big, inverted(box(10, 10, 10, 15, 5, 5))),
      { shells: 2, correctedShells: 1, voidShells: 0 },
      9,
    );
    // The same cube again, inside out and exactly on top of it: welded into one shell whose every cube
    // edge has four faces. Cut along those edges it is open patches, each counted as |its signed volume|
    // (here around a corner of the cube: the three far sides twice, 2 x 8 cm3), never 0.
    for (const [format, a] of await allFormats(merged(big, inverted(big)))) {
      expect([format, a.correctedShells, a.voidShells, a.nonManifoldEdges]).toEqual([format, 0, 0, 12]);
      expect([format, a.volumeCm3]).toEqual([format, expect.closeTo(16, 9)]);
    }
    // Moved half a millimetre, so that nothing welds: not strictly inside, so a solid turned outward.
    await expectEvery(
      merged(big, inverted(box(20, 20, 20, 0.5, 0, 0))),
      { shells: 2, correctedShells: 1, voidShells: 0 },
      16,
    );
    // Ten copies of one inside-out cube inside weld into one shell whose every edge has 20 faces: it would
    // take off 10 x 5.832 cm3 from 8 as a void. Cut along those edges it is 120 open triangles, each counted
    // as |its signed volume|.
    const copies = Array.from({ length: 10 }, () => inverted(box(18, 18, 18, 1, 1, 1)));
    for (const [format, a] of await allFormats(merged(big, ...copies))) {
      expect([format, a.shells, a.correctedShells, a.voidShells]).toEqual([format, 121, 0, 0]);
      expect(a.volumeCm3).toBeGreaterThan(8 + 58.32);
    }
    // Ten copies each moved a little: ten voids whose boxes overlap, all solid.
    const moved = Array.from({ length: 10 }, (_, k) => inverted(box(18, 18, 18, 1 + k / 16, 1, 1 - k / 32)));
    await expectEvery(
      merged(box(20, 20, 20, 0, 0, -1), ...moved),
      { shells: 11, correctedShells: 10, voidShells: 0 },
      66.32,
    );
    // Two different inside-out cubes inside whose boxes overlap: both solid.
    await expectEvery(
      merged(big, inverted(box(12, 12, 12, 2, 2, 2)), inverted(box(12, 12, 12, 6, 6, 6))),
      { shells: 3, correctedShells: 2, voidShells: 0 },
      8 + 2 * 1.728,
    );
  });

  it('does not take a shell in the notch of an L for a void (every sampled vertex must be inside)', async () => {
    const notch = inverted(box(10, 10, 5, 20, 20, 2)); // inside the L's box, outside the L
    await expectEvery(merged(lPrism(), notch), { shells: 2, correctedShells: 1, voidShells: 0 }, 7.5);
    const inArm = inverted(box(5, 5, 5, 2, 25, 2)); // inside the L's upright arm: a void
    await expectEvery(merged(lPrism(), inArm), { shells: 2, correctedShells: 0, voidShells: 1 }, 7 - 0.125);
  });

  it('counts an open shell as |its signed volume|, never corrected', async () => {
    const openInverted = inverted(withoutFace(box(10, 10, 10, 20, 0, 0), 1));
    const mesh = merged(cube10, openInverted);
    // Summed around the file's first vertex (the origin of the volume sum), as the analysis does.
    const open = Math.abs(signedVolume6(openInverted, [0, 0, 0])) / 6000;
    expect(open).toBeGreaterThan(0);
    await expectEvery(mesh, { shells: 2, correctedShells: 0, voidShells: 0, watertight: false }, 1 + open);
    // One signed sum would have let the open part cancel part of the cube.
    expect(Math.abs(signedVolume6(mesh, [0, 0, 0])) / 6000).toBeLessThan(1 + open);
  });

  it('treats a shell with one face wound the other way as open: never a void, never corrected', async () => {
    const inner = inverted(box(10, 10, 10, 10, 10, 10));
    const mixed = {
      vertices: inner.vertices,
      faces: inner.faces.map((f, k) => (k === 0 ? [...f].reverse() : f)),
    };
    // Summed around the file's first vertex, the outer cube's (0, 0, 0).
    const open = Math.abs(signedVolume6(mixed, [0, 0, 0])) / 6000;
    await expectEvery(
      merged(box(30, 30, 30), mixed),
      { shells: 2, correctedShells: 0, voidShells: 0, watertight: true, openEdges: 0 },
      27 + open,
    );
  });

  it('corrects many separate parts, some inside out', async () => {
    const parts = Array.from({ length: 60 }, (_, k) => {
      const cube = box(2, 2, 2, 3 * (k % 10), 3 * Math.floor(k / 10), 0);
      return k % 3 === 0 ? inverted(cube) : cube;
    });
    await expectEvery(merged(...parts), { shells: 60, correctedShells: 20, voidShells: 0 }, 60 * 0.008);
  });

  it('cuts parts touching along an edge into their own shells, and corrects one of them', async () => {
    // Welded along the shared edge (four faces): one component, two closed shells.
    const touching = merged(box(10, 10, 10), inverted(box(10, 10, 10, 10, 10, 0)));
    await expectEvery(
      touching,
      { shells: 2, correctedShells: 1, voidShells: 0, nonManifoldEdges: 1, watertight: false },
      2,
    );
  });

  it('reads a binary STL of one such part again, keeping its positions, only when it needs them', () => {
    const push = (mesh: IndexedMesh, keepPositions = false) => {
      const bytes = toBinaryStl(triangles(mesh));
      const analyzer = createMeshAnalyzer('stl-binary', { totalSize: bytes.length, keepPositions });
      analyzer.push(bytes);
      return { analysis: analyzer.finish(), again: analyzer.needsSecondPass() };
    };
    // A cube, the same cube inside out on top of it (welded), and a small cube touching it along an edge:
    // one part, closed, every edge of the big cube with four faces. Its signed sum is the small cube alone.
    const cancelled = merged(box(40, 40, 40), inverted(box(40, 40, 40)), box(10, 10, 10, 40, 40, 0));
    const first = push(cancelled);
    expect(first).toMatchObject({ again: true, analysis: { shells: 1, volumeCm3: 1 } });
    const second = push(cancelled, true);
    expect(second.again).toBe(false);
    expect(second.analysis.volumeCm3).toBeGreaterThanOrEqual(64 + 1);
    expect(analyzeMesh(toBinaryStl(triangles(cancelled)), 'stl').volumeCm3).toBe(second.analysis.volumeCm3);
    // Ordinary models never ask.
    for (const mesh of [cube10, merged(cube10, box(10, 10, 10, 20, 0, 0)), withoutFace(cube10, 2)])
      expect(push(mesh).again).toBe(false);
  });

  it('stays quick with thousands of parts, counting each in full past its work budget', async () => {
    const parts = Array.from({ length: 5000 }, (_, k) => {
      const cube = box(1, 1, 1, 2 * (k % 100), 2 * Math.floor(k / 100), 0);
      return k % 10 === 0 ? cube : inverted(cube);
    });
    const started = performance.now();
    const a = analyzeMesh(toBinaryStl(triangles(merged(...parts))), 'stl');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(a).toMatchObject({ shells: 5000, correctedShells: 4500, voidShells: 0 });
    expect(a.volumeCm3).toBeCloseTo(5, 9);
  });

  it('keeps the one signed sum without the topology check (only used to measure its cost)', () => {
    const bytes = toBinaryStl(triangles(merged(cube10, inverted(box(10, 10, 10, 20, 0, 0)))));
    expect(analyzeMesh(bytes, 'stl', { topology: false })).toMatchObject({
      volumeCm3: 0,
      shells: 0,
      correctedShells: 0,
      voidShells: 0,
    });
  });
});

describe('3MF objects and components', () => {
  async function analyse(spec: Parameters<typeof simple3mf>[0]) {
    return analyse3mf(await read3mf(simple3mf(spec))).analysis;
  }

  it('counts a mirrored copy in full (its winding is flipped as it is placed)', async () => {
    const a = await analyse({
      objects: [{ id: 1, mesh: cube10 }],
      build: [{ objectid: 1 }, { objectid: 1, transform: '-1 0 0 0 1 0 0 0 1 40 0 0' }],
    });
    expect(a).toMatchObject({ shells: 2, correctedShells: 0, voidShells: 0 });
    expect(a.volumeCm3).toBeCloseTo(2, 12);
  });

  it('corrects an inside-out object placed beside another, and a mirrored inside-out one', async () => {
    const a = await analyse({
      objects: [
        { id: 1, mesh: cube10 },
        { id: 2, mesh: inverted(cube10) },
      ],
      build: [
        { objectid: 1 },
        { objectid: 2, transform: scaleMove(1, 20, 0, 0) },
        { objectid: 2, transform: '1 0 0 0 1 0 0 0 -1 40 0 10' },
      ],
    });
    expect(a).toMatchObject({ shells: 3, correctedShells: 2, voidShells: 0 });
    expect(a.volumeCm3).toBeCloseTo(3, 12);
  });

  it('reads a hollow made of components (an outer object and an inside-out inner one)', async () => {
    const a = await analyse({
      objects: [
        { id: 1, mesh: box(30, 30, 30) },
        { id: 2, mesh: inverted(box(10, 10, 10)) },
        { id: 3, components: [{ objectid: 1 }, { objectid: 2, transform: scaleMove(1, 10, 10, 10) }] },
      ],
      build: [{ objectid: 3, transform: scaleMove(1, 100, 100, 0) }],
    });
    expect(a).toMatchObject({ shells: 2, correctedShells: 0, voidShells: 1 });
    expect(a.volumeCm3).toBeCloseTo(26, 12);
  });

  it('keeps the winding of a mirrored inner component: outward counts in full, inside out is a void', async () => {
    const hollow = async (inner: IndexedMesh) =>
      analyse({
        objects: [
          { id: 1, mesh: box(30, 30, 30) },
          { id: 2, mesh: inner },
          { id: 3, components: [{ objectid: 1 }, { objectid: 2, transform: '-1 0 0 0 1 0 0 0 1 20 10 10' }] },
        ],
        build: [{ objectid: 3 }],
      });
    // An outward shell inside an outward one: an embedded body, solid (as it always counted), never a void.
    const embedded = await hollow(box(10, 10, 10));
    expect(embedded).toMatchObject({ shells: 2, correctedShells: 0, voidShells: 0 });
    expect(embedded.volumeCm3).toBeCloseTo(28, 12);
    const hollowed = await hollow(inverted(box(10, 10, 10)));
    expect(hollowed).toMatchObject({ shells: 2, correctedShells: 0, voidShells: 1 });
    expect(hollowed.volumeCm3).toBeCloseTo(26, 12);
  });
});

describe('translated models', () => {
  it('finds a void wherever the model sits', async () => {
    const far = translated(merged(box(30, 30, 30), inverted(box(10, 10, 10, 10, 10, 10))), 5000, -7000, 300);
    await expectEvery(far, { shells: 2, correctedShells: 0, voidShells: 1 }, 26);
  });
});
