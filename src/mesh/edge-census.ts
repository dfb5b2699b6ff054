// The edge census of the watertight check: how many faces use each undirected edge of a welded mesh, by
// grouping the edges under their smaller vertex (a counting sort into one Int32Array) and sorting each small
// group: sequential memory access instead of a hash probe per edge, and no input can make it quadratic.
// Self-contained (no imports, nothing but its own constants), so that the census helper thread runs it from
// its source (census-thread.ts).

/** An edge whose faces do not run as often one way as the other: its shell is open (or wound inconsistently). */
export const UNBALANCED = 1;
/** An edge of more than two faces: its shell may wrap space more than once, so it is never a void. */
export const NON_MANIFOLD = 2;

export interface EdgeCensus {
  openEdges: number;
  nonManifoldEdges: number;
  /** Edges of an odd number of faces (1, 3...): their shell is not closed. */
  oddEdges: number;
}

/**
 * Open (1 use), non-manifold (3+ uses) and odd (an odd number of uses: never closed) edges of faces given as
 * vertex id triples. marks, if given, gets UNBALANCED (odd) and NON_MANIFOLD at the smaller end of such
 * edges. Whether the faces of an edge run once each way is checked apart (labelShells' winding sums).
 * counted: the faces' edges already counted by their smaller end (countEdgeEnds, as the faces came; at
 * least vertexCount + 1 long, 0 past the last id); it is used up.
 */
export function edgeCensus(
  faces: Int32Array,
  faceCount: number,
  vertexCount: number,
  marks: Uint8Array | null = null,
  counted: Int32Array | null = null,
): EdgeCensus {
  const edgeCount = 3 * faceCount;
  // start[v] .. start[v + 1]: the larger ends of the edges whose smaller end is v.
  let start = counted;
  if (start === null) {
    start = new Int32Array(vertexCount + 1);
    countEdgeEnds(faces, 0, faceCount, start);
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
  let odd = 0;
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
      if (uses !== 2) {
        if (uses === 1) open++;
        else nonManifold++;
        if ((uses & 1) === 1) odd++;
        if (marks !== null) marks[v]! |= (uses > 2 ? NON_MANIFOLD : 0) | (uses & 1 ? UNBALANCED : 0);
      }
      k = run;
    }
  }
  return { openEdges: open, nonManifoldEdges: nonManifold, oddEdges: odd };
}

/** Counts the edges of faces from .. to under their smaller end: counts[v]++ (edgeCensus' first pass). */
export function countEdgeEnds(faces: Int32Array, from: number, to: number, counts: Int32Array): void {
  for (let k = 3 * from, end = 3 * to; k < end; k += 3) {
    const a = faces[k]!;
    const b = faces[k + 1]!;
    const c = faces[k + 2]!;
    counts[a < b ? a : b]!++;
    counts[b < c ? b : c]!++;
    counts[c < a ? c : a]!++;
  }
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

/** The census' code as a script (its constants and functions), for a thread that cannot import modules. */
export function censusSource(): string {
  return [
    `const UNBALANCED = ${UNBALANCED};`,
    `const NON_MANIFOLD = ${NON_MANIFOLD};`,
    insertionSort.toString(),
    countEdgeEnds.toString(),
    edgeCensus.toString(),
  ].join('\n');
}
