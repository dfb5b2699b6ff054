import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countEdgeEnds, edgeCensus } from './edge-census.ts';
import { labelShells, ShellLabeler } from './shells.ts';
import { Topology } from './topology.ts';
import { Float32Welder, VertexWelder } from './vertex-welder.ts';

describe('edgeCensus', () => {
  it('finds a closed tetrahedron watertight', () => {
    const faces = Int32Array.from([0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3]);
    expect(edgeCensus(faces, 4, 4)).toEqual({ openEdges: 0, nonManifoldEdges: 0, oddEdges: 0 });
  });

  it('counts open and non-manifold edges', () => {
    // Three triangles on the edge 0-1 (non-manifold); every other edge is used once.
    const faces = Int32Array.from([0, 1, 2, 1, 0, 3, 0, 1, 4]);
    expect(edgeCensus(faces, 3, 5)).toEqual({ openEdges: 6, nonManifoldEdges: 1, oddEdges: 7 });
  });

  it('handles a vertex with thousands of edges (a fan), sorting its group', () => {
    const n = 5000;
    const faces = new Int32Array(3 * n);
    for (let k = 0; k < n; k++) faces.set([0, k + 1, ((k + 1) % n) + 1], 3 * k);
    // A closed fan disc: the spokes are shared, the rim is open.
    expect(edgeCensus(faces, n, n + 1)).toEqual({ openEdges: n, nonManifoldEdges: 0, oddEdges: n });
  });
});

/** Faces over `vertices` ids: random triangles (open, non-manifold, repeated), as a broken file has. */
const facesArb = fc
  .integer({ min: 3, max: 40 })
  .chain((vertices) =>
    fc.tuple(
      fc.constant(vertices),
      fc.array(fc.tuple(fc.nat(vertices - 1), fc.nat(vertices - 1), fc.nat(vertices - 1)), {
        maxLength: 120,
      }),
      fc.array(fc.nat(8), { maxLength: 12 }),
    ),
  )
  .map(([vertices, triples, cuts]) => {
    const kept = triples.filter(([a, b, c]) => a !== b && b !== c && a !== c);
    return { vertices, faces: Int32Array.from(kept.flat()), faceCount: kept.length, cuts };
  });

/** The roots of every id, as a labelling's components (the smallest id of each). */
function roots(parent: Int32Array, vertexCount: number): number[] {
  const out: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    let x = v;
    if (parent[x] === 0) {
      out.push(-1);
      continue;
    }
    while (parent[x]! - 1 !== x) x = parent[x]! - 1;
    out.push(x);
  }
  return out;
}

describe('shells and edges followed as the faces come (ShellLabeler, countEdgeEnds)', () => {
  it('label and count the same in any batches as all at once, growing past the vertices expected', () => {
    fc.assert(
      fc.property(facesArb, ({ vertices, faces, faceCount, cuts }) => {
        const whole = labelShells(faces, faceCount, vertices);
        // Expecting a single vertex, batches cut where the cuts say: the parents grow as ids come.
        const labeler = new ShellLabeler(1);
        const counts = new Int32Array(vertices + 1);
        let from = 0;
        let seenVertices = 0;
        for (const cut of [...cuts, faceCount]) {
          const to = Math.min(faceCount, from + cut);
          for (let k = 3 * from; k < 3 * to; k++) seenVertices = Math.max(seenVertices, faces[k]! + 1);
          labeler.add(faces, from, to, seenVertices);
          countEdgeEnds(faces, from, to, counts);
          from = to;
        }
        labeler.add(faces, from, faceCount, vertices);
        countEdgeEnds(faces, from, faceCount, counts);
        const followed = labeler.labels(vertices);
        expect(followed.count).toBe(whole.count);
        expect(roots(followed.parent, vertices)).toEqual(roots(whole.parent, vertices));
        // The winding sums use each labelling's own seeds: both are 0 exactly when every edge is balanced.
        expect(followed.winding === 0).toBe(whole.winding === 0);
        const marksWhole = new Uint8Array(vertices);
        const marksFollowed = new Uint8Array(vertices);
        expect(edgeCensus(faces, faceCount, vertices, marksFollowed, counts)).toEqual(
          edgeCensus(faces, faceCount, vertices, marksWhole),
        );
        expect(marksFollowed).toEqual(marksWhole);
      }),
      { numRuns: 300 },
    );
  });

  it('give a Topology followed up in slices between batches the result of one that never was', () => {
    fc.assert(
      fc.property(facesArb, ({ vertices, faces, faceCount, cuts }) => {
        const box = { volume6: 1, origin: [0, 0, 0], min: [0, 0, 0], max: [1, 1, 1] } as const;
        const once = new Topology();
        once.triangles(new Float64Array(0), faces, faceCount);
        const batched = new Topology();
        let from = 0;
        for (const cut of [...cuts, faceCount]) {
          const to = Math.min(faceCount, from + cut);
          batched.triangles(new Float64Array(0), faces.subarray(3 * from, 3 * to), to - from);
          // Slices of 1 to 8 faces, some batches followed up in part, some not at all.
          for (let slices = cut % 3; slices > 0 && batched.followUp(cut + 1); slices--);
          from = to;
        }
        const positions = Float64Array.from({ length: 3 * vertices }, (_, k) => k % 7);
        once.vertexPositions(positions);
        batched.vertexPositions(positions);
        expect(batched.result(box)).toEqual(once.result(box));
      }),
      { numRuns: 200 },
    );
  });
});

describe('Topology', () => {
  it('followed up, then given only faces with repeated corners (new vertices, no face): the same result', () => {
    const tetra = [0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const last = [0, 1, 0, 0, 0, 0, 0, 0, 1];
    const degenerate = [5, 5, 5, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 7, 7, 7];
    const whole = { volume6: 1, origin: [0, 0, 0], min: [0, 0, 0], max: [8, 8, 8] } as const;
    const results = [false, true].map((followed) => {
      const t = new Topology();
      t.triangles(Float64Array.from([...tetra, ...last]), null, 4);
      if (followed) while (t.followUp(1));
      t.triangles(Float64Array.from(degenerate), null, 2);
      return t.result(whole);
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[1]).toMatchObject({ openEdges: 0, nonManifoldEdges: 0, shells: 1 });
  });

  it('welds corners by exact position, -0 and 0 alike', () => {
    const t = new Topology();
    const p = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, -0, 0, 0, 0, 1, 0, 1, 0, 0]);
    t.triangles(p, null, 2);
    // Two triangles on the same three points: three edges, each used twice.
    const whole = { volume6: 0, origin: [0, 0, 0], min: [0, 0, 0], max: [1, 1, 0] } as const;
    expect(t.result(whole)).toMatchObject({ openEdges: 0, nonManifoldEdges: 0, shells: 1 });
  });

  it('keeps positions that differ in the last bit apart', () => {
    const w = new VertexWelder();
    expect(w.weld(1, 2, 3)).toBe(0);
    expect(w.weld(1 + Number.EPSILON, 2, 3)).toBe(1);
    expect(w.weld(1, 2, 3)).toBe(0);
  });

  it('welds a million distinct positions and finds each again', () => {
    const w = new VertexWelder();
    const n = 1 << 20;
    let wrong = 0;
    for (let k = 0; k < n; k++) if (w.weld(k % 1000, Math.floor(k / 1000), 0.5) !== k) wrong++;
    for (let k = 0; k < n; k += 7) if (w.weld(k % 1000, Math.floor(k / 1000), 0.5) !== k) wrong++;
    expect(wrong).toBe(0);
    expect(w.count).toBe(n);
  });
});

describe('Float32Welder.weldRecords', () => {
  /** Binary STL records (no header) for triangles given as float32 bit patterns, 9 per triangle. */
  function records(bits: number[]): DataView {
    const view = new DataView(new ArrayBuffer((bits.length / 9) * 50));
    for (const [k, b] of bits.entries()) view.setUint32(50 * Math.floor(k / 9) + 12 + 4 * (k % 9), b, true);
    return view;
  }

  /** Ids in order of first appearance, by exact bit pattern, -0 as 0. */
  function referenceIds(bits: number[]): number[] {
    const seen = new Map<string, number>();
    const ids: number[] = [];
    for (let k = 0; k < bits.length; k += 3) {
      const key = bits
        .slice(k, k + 3)
        .map((b) => (b === 0x80000000 ? 0 : b))
        .join(',');
      if (!seen.has(key)) seen.set(key, seen.size);
      ids.push(seen.get(key)!);
    }
    return ids;
  }

  function weldInBatches(bits: number[], batches: number[], expected = 1024): number[] {
    const view = records(bits);
    const welder = new Float32Welder(expected);
    const n = bits.length / 9;
    const ids = new Int32Array(3 * n);
    let r = 0;
    for (let b = 0; r < n; b++) {
      const count = Math.min(n - r, batches[b % batches.length]!);
      const out = new Int32Array(3 * count);
      welder.weldRecords(view, 50 * r, count, out);
      ids.set(out, 3 * r);
      r += count;
    }
    return [...ids];
  }

  it('gives the ids of first appearance, repeats within and across batches, -0 as 0', () => {
    // Corners mostly from a few positions (so that a batch repeats positions it has just met),
    // some of them -0 or 0 alike, and some anywhere.
    const pool = [
      [0, 0, 0],
      [0x80000000, 0, 0x80000000],
      [0x3f800000, 0, 0],
      [0, 0x3f800000, 0],
      [0xbf800000, 0x7f7fffff, 1],
      [0x40000000, 0x40000000, 0x40000000],
    ];
    const corner = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...pool) },
      { weight: 1, arbitrary: fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)) },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(corner, corner, corner), { minLength: 1, maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        (triangles, batches) => {
          const bits = triangles.flat(2);
          expect(weldInBatches(bits, batches)).toEqual(referenceIds(bits));
        },
      ),
    );
  });

  it('grows its table in the middle of a batch and still finds every position', () => {
    // 60 000 distinct positions, each used twice (once in each half), from a table sized for 1024.
    const positions = 60_000;
    const bits: number[] = [];
    for (let pass = 0; pass < 2; pass++) {
      for (let k = 0; k < positions; k++) bits.push(0x3f800000 + k, 0x40000000 + (k % 251), 7);
    }
    const ids = weldInBatches(bits, [256, 1, 77]);
    expect(ids).toEqual(referenceIds(bits));
    expect(Math.max(...ids)).toBe(positions - 1);
  });
});
