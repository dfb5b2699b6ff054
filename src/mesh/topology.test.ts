import { describe, expect, it } from 'vitest';
import { edgeCensus, Topology } from './topology.ts';
import { VertexWelder } from './vertex-welder.ts';

describe('edgeCensus', () => {
  it('finds a closed tetrahedron watertight', () => {
    const faces = Int32Array.from([0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3]);
    expect(edgeCensus(faces, 4, 4)).toEqual({ openEdges: 0, nonManifoldEdges: 0 });
  });

  it('counts open and non-manifold edges', () => {
    // Three triangles on the edge 0-1 (non-manifold); every other edge is used once.
    const faces = Int32Array.from([0, 1, 2, 1, 0, 3, 0, 1, 4]);
    expect(edgeCensus(faces, 3, 5)).toEqual({ openEdges: 6, nonManifoldEdges: 1 });
  });

  it('handles a vertex with thousands of edges (a fan), sorting its group', () => {
    const n = 5000;
    const faces = new Int32Array(3 * n);
    for (let k = 0; k < n; k++) faces.set([0, k + 1, ((k + 1) % n) + 1], 3 * k);
    // A closed fan disc: the spokes are shared, the rim is open.
    expect(edgeCensus(faces, n, n + 1)).toEqual({ openEdges: n, nonManifoldEdges: 0 });
  });
});

describe('Topology', () => {
  it('welds corners by exact position, -0 and 0 alike', () => {
    const t = new Topology();
    const p = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, -0, 0, 0, 0, 1, 0, 1, 0, 0]);
    t.triangles(p, null, 2);
    // Two triangles on the same three points: three edges, each used twice.
    expect(t.result()).toEqual({ openEdges: 0, nonManifoldEdges: 0 });
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
