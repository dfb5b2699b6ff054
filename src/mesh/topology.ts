// The watertight check: weld corners into vertex ids (a 3MF mesh's used vertices once each, in their order
// of first use: the same ids, scene.ts measureInstances), keep each face's three ids, and at the end
// count how many faces use each undirected edge (edge-census.ts; a big 3MF model's on a helper thread,
// census-thread.ts). The same ids label the shells (connected components, a union-find over the faces),
// which shells.ts measures one by one when there are several.

import {
  censusElsewhere,
  HELPER_FACES,
  type PendingCensus,
  sharedInt32,
  sharedUint8,
} from './census-thread.ts';
import { countEdgeEnds, type EdgeCensus, edgeCensus } from './edge-census.ts';
import { growInt32 } from './grow.ts';
import { keepShape } from './keep-shapes.ts';
import {
  labelShells,
  resolveShells,
  ShellLabeler,
  type ShellLabels,
  type ShellSummary,
  singleShell,
  type WholeMesh,
} from './shells.ts';
import type { TriangleSink } from './types.ts';
import { Float32Welder, VertexWelder } from './vertex-welder.ts';

/** Vertices or faces per call of the 3MF loops. */
const WELD_BLOCK = 4096;

/** indexedFaces' loop over tri[k, end): writes the faces from faceCount on; returns the new count. */
function indexedFaceBlock(
  tri: Int32Array,
  k: number,
  end: number,
  ids: Int32Array,
  second: number,
  third: number,
  faces: Int32Array,
  faceCount: number,
): number {
  let f = 3 * faceCount;
  for (; k < end; k += 3) {
    const a = ids[tri[k]!]!;
    const b = ids[tri[k + second]!]!;
    const c = ids[tri[k + third]!]!;
    if (a === b || b === c || a === c) continue;
    faces[f] = a;
    faces[f + 1] = b;
    faces[f + 2] = c;
    f += 3;
  }
  return f / 3;
}

/** A welded mesh: faces as vertex id triples, positions as x, y, z at 3 * id (vertexCount of them). */
export type WeldedMesh = {
  faces: Int32Array;
  positions: Float64Array | Float32Array;
  vertexCount: number;
};

export type TopologyResult = Omit<EdgeCensus, 'oddEdges'> & ShellSummary;

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
  /** OBJ: the positions of the ids it hands over, given at the end (vertexPositions). */
  private idPositions: Float64Array | null = null;
  /**
   * A streamed model's (STL, OBJ) shells labelled and edges counted by their smaller end (edgeCensus' first
   * pass) while the analysis waits for more of the file (followUp), up to `followed` faces: what is left
   * after the last byte is then only the census' rest. Otherwise (a file read whole, a 3MF model, whose
   * labels run beside the census helper) both are made at the end.
   */
  private labeler: ShellLabeler | null = null;
  private edgeEnds: Int32Array = new Int32Array(0);
  private followed = 0;

  /**
   * Binary STL: keep the positions for the shells even when the mesh is one part. Only needed when that
   * part is closed with edges of more than two faces (to be cut along them); the first analysis says so
   * (needsPositions), and keeping them costs memory at the census for every model.
   */
  private readonly keepPositions: boolean;
  /** After result: one closed part with edges of more than two faces could not be cut (no positions). */
  needsPositions = false;
  /** Hand the welded faces and their positions over after result (kept), for the 3D viewer's mesh. */
  private readonly keepMesh: boolean;
  /** After result, with keepMesh: the faces (vertex ids, 3 a face) and positions (x, y, z at 3 * id). */
  kept: WeldedMesh | null = null;

  constructor(
    expectedTriangles = 0,
    options: { keepPositions?: boolean; keepMesh?: boolean; sharedFaces?: boolean } = {},
  ) {
    this.expectedTriangles = expectedTriangles;
    this.keepPositions = options.keepPositions ?? false;
    this.keepMesh = options.keepMesh ?? false;
    const length = 3 * Math.max(1024, expectedTriangles);
    // A 3MF model's faces go in shared memory, for the census helper (census-thread.ts). Not an STL's: the
    // census made elsewhere leaves its weld table (garbage by then, ~32 MB for a 64 MB file) to a later
    // collection, which the census here prompts by its own allocations, and the peak would rise past its
    // target.
    this.faces =
      options.sharedFaces && length >= 3 * HELPER_FACES ? sharedInt32(length) : new Int32Array(length);
  }

  /** The census handed to the helper by beginCensus, if it took it. */
  private pending: PendingCensus | null = null;
  private pendingMarks: Uint8Array | null = null;

  /**
   * Hands the edge census to the helper thread now, when no face will be added any more, so that it runs
   * while this thread does the rest (a 3MF model's geometry, the shells' labels). result() collects it.
   */
  beginCensus(): void {
    if (this.pending !== null) return;
    const vertexCount = this.maxId + 1;
    if (this.faceCount < HELPER_FACES || !(this.faces.buffer instanceof SharedArrayBuffer)) return;
    const marks = sharedUint8(vertexCount);
    this.pending = censusElsewhere(this.faces, this.faceCount, vertexCount, marks);
    if (this.pending !== null) this.pendingMarks = marks;
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
   * A 3MF model's vertices to come, at most (weldVertices): the welder is sized for them once, up to one a
   * triangle (a closed mesh has about half as many; past that it grows as it goes).
   */
  expectVertices(n: number): void {
    const known = Math.min(n, Math.max(1024, this.expectedTriangles));
    this.welder ??= new VertexWelder(known, known);
  }

  /**
   * Welds vertices of a placed 3MF mesh a triangle uses (positions at 3 * i in xyz), order[from, to) of
   * them in their order of first use, which gives the ids welding every corner would: ids[i] for vertex i.
   */
  weldVertices(xyz: Float64Array, order: Int32Array, from: number, to: number, ids: Int32Array): void {
    this.welder ??= new VertexWelder(this.expectedTriangles * 0.5);
    // In calls of a block each (scene.ts measureInstances says why).
    for (let k = from; k < to; k += WELD_BLOCK)
      this.welder.weldIndexed(xyz, order, k, Math.min(to, k + WELD_BLOCK), ids);
  }

  /**
   * The faces of a placed 3MF mesh whose used vertices were welded (weldVertices, ids[i] for vertex i):
   * tri[k], tri[k + second], tri[k + third] each (second and third swap for a mirroring transform).
   */
  indexedFaces(tri: Int32Array, ids: Int32Array, second: number, third: number): void {
    this.reserve(tri.length / 3);
    // In calls of a block each (scene.ts measureInstances says why).
    for (let k = 0; k < tri.length; k += 3 * WELD_BLOCK)
      this.faceCount = indexedFaceBlock(
        tri,
        k,
        Math.min(tri.length, k + 3 * WELD_BLOCK),
        ids,
        second,
        third,
        this.faces,
        this.faceCount,
      );
    if (this.welder !== null) this.maxId = this.welder.count - 1;
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

  /**
   * Labels and counts up to `most` of the faces added since the last time (see labeler), for a caller that
   * would otherwise wait (for more of a file); whether some are left.
   */
  followUp(most: number): boolean {
    const vertexCount = this.maxId + 1;
    // Grown even with no face to follow: a face with a repeated corner adds vertices, not a face, and the
    // census takes the counts of every vertex.
    if (vertexCount + 1 > this.edgeEnds.length)
      this.edgeEnds = growInt32(this.edgeEnds, Math.max(vertexCount + 1, this.expectedVertices()));
    const to = Math.min(this.faceCount, this.followed + most);
    if (to === this.followed) return false;
    if (this.labeler === null)
      this.labeler = new ShellLabeler(Math.max(vertexCount, this.expectedVertices()));
    this.labeler.add(this.faces, this.followed, to, vertexCount);
    countEdgeEnds(this.faces, this.followed, to, this.edgeEnds);
    this.followed = to;
    return to < this.faceCount;
  }

  /** A closed mesh has about half as many vertices as triangles (a binary STL's count is known). */
  private expectedVertices(): number {
    return this.expectedTriangles > 0 ? Math.ceil(this.expectedTriangles / 2) + 2 : 0;
  }

  /** The positions of the ids given to triangles() (x, y, z at 3 * id), once they are all known. */
  vertexPositions(coordinates: Float64Array): void {
    this.idPositions = coordinates;
  }

  private reserve(n: number): void {
    if (3 * (this.faceCount + n) > this.faces.length) {
      // Grown faces (a text format's, of a count not known before) stay private: shared memory is not
      // collected as eagerly, and the garbage of each doubling would raise the peak (~13 MB for a 64 MB OBJ).
      const next = new Int32Array(Math.max(this.faces.length * 2, 3 * (this.faceCount + n)));
      next.set(this.faces.subarray(0, 3 * this.faceCount));
      this.faces = next;
    }
  }

  /**
   * The census and the shells; whole: what the Geometry measured of the same triangles. Afterwards
   * needsPositions says whether a binary STL must be analysed again with keepPositions (see there).
   */
  result(whole: WholeMesh): TopologyResult {
    const faces = this.faces;
    const faceCount = this.faceCount;
    const vertexCount = this.maxId + 1;
    this.beginCensus();
    let labels: ShellLabels;
    let counted: Int32Array | null = null;
    if (this.labeler !== null) {
      this.followUp(Number.POSITIVE_INFINITY);
      labels = this.labeler.labels(vertexCount);
      counted = this.edgeEnds;
    } else labels = labelShells(faces, faceCount, vertexCount);
    this.labeler = null;
    this.edgeEnds = new Int32Array(0);
    // Several shells are measured one by one, from the positions. The text formats' are an array they
    // have anyway; a binary STL's are read out of its weld table (12 bytes a vertex), only when needed.
    // The weld tables go before the census, its memory peak (made here; a 3MF model's on the helper thread
    // may have begun already, beside them).
    const binary = this.float32Welder !== null;
    let positions = !binary || labels.count > 1 || this.keepPositions ? this.positions() : null;
    if (this.keepMesh) {
      const kept = positions ?? this.positions();
      if (kept) this.kept = { faces: faces.subarray(0, 3 * faceCount), positions: kept, vertexCount };
    }
    this.welder = null;
    this.float32Welder = null;
    this.idPositions = null;
    this.faces = new Int32Array(0);
    let marks = this.pendingMarks;
    let census = this.pending?.wait() ?? null;
    this.pending = null;
    this.pendingMarks = null;
    if (census === null || marks === null) {
      marks = new Uint8Array(vertexCount);
      census = edgeCensus(faces, faceCount, vertexCount, marks, counted);
    }
    const { oddEdges, ...edges } = census;
    // Closed: every edge's faces run as often one way as the other (an odd count never does).
    const closed = oddEdges === 0 && labels.winding === 0;
    // One shell with no edge of more than two faces (the common case): the whole mesh's signed volume
    // says it all. One closed shell with such edges is cut along them (resolveShells).
    const cut = labels.count <= 1 && closed && edges.nonManifoldEdges > 0;
    if (labels.count <= 1 && !cut) positions = null;
    this.needsPositions = cut && positions === null;
    const shells =
      positions !== null
        ? resolveShells({ faces, faceCount, vertexCount, labels, marks, positions }, whole)
        : singleShell(labels.count, closed, whole);
    return { ...edges, ...shells };
  }

  private positions(): Float64Array | Float32Array | null {
    if (this.welder !== null) return this.welder.coords;
    if (this.float32Welder !== null) return this.float32Welder.positions();
    return this.idPositions;
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new Topology());
