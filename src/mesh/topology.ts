// The watertight check: weld corners into vertex ids, keep each face's three ids, and at the end
// count how many faces use each undirected edge. Counting is done by grouping edges under their
// smaller vertex (a counting sort into one Int32Array) and sorting each small group: sequential
// memory access instead of a hash probe per edge, and no input can make it quadratic.

import type { TriangleSink } from './types.ts';
import { Float32Welder, VertexWelder } from './vertex-welder.ts';

export interface TopologyResult {
  openEdges: number;
  nonManifoldEdges: number;
}

export class Topology implements TriangleSink {
  /** Welds ASCII STL corners; OBJ hands over ids it welded itself. */
  private welder: VertexWelder | null = null;
  /** Welds binary STL corners, straight from the records' bytes. */
  private float32Welder: Float32Welder | null = null;
  private faces: Int32Array;
  private faceCount = 0;
  /** A batch's welded corner ids (binary STL). */
  private ids = new Int32Array(0);
  private maxId = -1;
  private readonly expectedTriangles: number;

  constructor(expectedTriangles = 0) {
    this.expectedTriangles = expectedTriangles;
    this.faces = new Int32Array(3 * Math.max(1024, expectedTriangles));
  }

  triangles(p: Float64Array, ids: Int32Array | null, n: number): void {
    this.reserve(n);
    const faces = this.faces;
    let f = 3 * this.faceCount;
    let maxId = this.maxId;
    if (ids === null) {
      if (this.welder === null) this.welder = new VertexWelder(this.expectedTriangles * 0.6);
      const welder = this.welder;
      for (let k = 0, end = 9 * n; k < end; k += 9) {
        const a = welder.weld(p[k]!, p[k + 1]!, p[k + 2]!);
        const b = welder.weld(p[k + 3]!, p[k + 4]!, p[k + 5]!);
        const c = welder.weld(p[k + 6]!, p[k + 7]!, p[k + 8]!);
        // A face with a repeated vertex has no real edges (it counts as degenerate by its area).
        if (a === b || b === c || a === c) continue;
        faces[f] = a;
        faces[f + 1] = b;
        faces[f + 2] = c;
        f += 3;
      }
      maxId = welder.count - 1;
    } else {
      for (let k = 0, end = 3 * n; k < end; k += 3) {
        const a = ids[k]!;
        const b = ids[k + 1]!;
        const c = ids[k + 2]!;
        if (a === b || b === c || a === c) continue;
        faces[f] = a;
        faces[f + 1] = b;
        faces[f + 2] = c;
        f += 3;
        if (a > maxId) maxId = a;
        if (b > maxId) maxId = b;
        if (c > maxId) maxId = c;
      }
    }
    this.maxId = maxId;
    this.faceCount = f / 3;
  }

  /**
   * Binary STL records read in place: the float32 bit patterns are the weld keys (no copy, no
   * conversion). Coordinates must already have been checked (Geometry.addStlRecords).
   */
  addStlRecords(view: DataView, offset: number, n: number): void {
    this.reserve(n);
    if (this.ids.length < 3 * n) this.ids = new Int32Array(3 * n);
    if (this.float32Welder === null) this.float32Welder = new Float32Welder(this.expectedTriangles * 0.5 + 2);
    const welder = this.float32Welder;
    const ids = this.ids;
    welder.weldRecords(view, offset, n, ids);
    const faces = this.faces;
    let f = 3 * this.faceCount;
    for (let k = 0, end = 3 * n; k < end; k += 3) {
      const a = ids[k]!;
      const b = ids[k + 1]!;
      const c = ids[k + 2]!;
      if (a === b || b === c || a === c) continue;
      faces[f] = a;
      faces[f + 1] = b;
      faces[f + 2] = c;
      f += 3;
    }
    this.faceCount = f / 3;
    this.maxId = welder.count - 1;
  }

  private reserve(n: number): void {
    if (3 * (this.faceCount + n) > this.faces.length) {
      const next = new Int32Array(Math.max(this.faces.length * 2, 3 * (this.faceCount + n)));
      next.set(this.faces.subarray(0, 3 * this.faceCount));
      this.faces = next;
    }
  }

  result(): TopologyResult {
    this.welder = null;
    this.float32Welder = null;
    const census = edgeCensus(this.faces, this.faceCount, this.maxId + 1);
    this.faces = new Int32Array(0);
    return census;
  }
}

/** Open (1 use) and non-manifold (3+ uses) edges of faces given as vertex id triples. */
export function edgeCensus(faces: Int32Array, faceCount: number, vertexCount: number): TopologyResult {
  const edgeCount = 3 * faceCount;
  // start[v] .. start[v + 1]: the larger ends of the edges whose smaller end is v.
  const start = new Int32Array(vertexCount + 1);
  for (let k = 0; k < edgeCount; k += 3) {
    const a = faces[k]!;
    const b = faces[k + 1]!;
    const c = faces[k + 2]!;
    start[a < b ? a : b]!++;
    start[b < c ? b : c]!++;
    start[c < a ? c : a]!++;
  }
  let sum = 0;
  for (let v = 0; v <= vertexCount; v++) {
    sum += start[v]!;
    start[v] = sum;
  }
  const others = new Int32Array(edgeCount);
  for (let k = edgeCount - 3; k >= 0; k -= 3) {
    const a = faces[k]!;
    const b = faces[k + 1]!;
    const c = faces[k + 2]!;
    if (a < b) others[--start[a]!] = b;
    else others[--start[b]!] = a;
    if (b < c) others[--start[b]!] = c;
    else others[--start[c]!] = b;
    if (c < a) others[--start[c]!] = a;
    else others[--start[a]!] = c;
  }
  let open = 0;
  let nonManifold = 0;
  for (let v = 0; v < vertexCount; v++) {
    const from = start[v]!;
    const to = start[v + 1]!;
    if (to - from > 16) others.subarray(from, to).sort();
    else insertionSort(others, from, to);
    let k = from;
    while (k < to) {
      const value = others[k]!;
      let run = k + 1;
      while (run < to && others[run] === value) run++;
      const uses = run - k;
      if (uses === 1) open++;
      else if (uses > 2) nonManifold++;
      k = run;
    }
  }
  return { openEdges: open, nonManifoldEdges: nonManifold };
}

function insertionSort(a: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= from && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}
