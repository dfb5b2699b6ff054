// What a 3MF file asks to print: every build item, with the components it is made of, each mesh placed by
// the product of the transforms on the way down (3MF core specification 3.4: a row vector times a 4 x 3
// matrix). Triangles are handed to a TriangleSink in batches, like the STL and OBJ parsers do, so the
// analysis, preview and view mesh read a 3MF model exactly as they read the others.

import { badCoordinate, MAX_COORDINATE } from '../coordinates.ts';
import { MeshError } from '../errors.ts';
import { type Geometry, MAX_TRIANGLES } from '../geometry.ts';
import type { Topology } from '../topology.ts';
import { BATCH_TRIANGLES, type TriangleSink } from '../types.ts';
import type { MeshObject, ModelObject, ModelPart, Reference, Transform } from './model-part.ts';

const IDENTITY: Transform = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
/** Deeper nesting of components is refused (real files use two or three levels). */
const MAX_DEPTH = 32;
/** Objects placed, meshes or not: components that place nothing could otherwise be visited 2^31 times. */
const MAX_PLACEMENTS = 1_000_000;
/** Placed meshes, however few triangles each has. */
const MAX_INSTANCES = 100_000;

export interface Instance {
  mesh: MeshObject;
  transform: Transform;
  /** A mirroring transform turns the mesh inside out: its triangles are emitted with the other winding. */
  mirrored: boolean;
}

/** a then b: p * a * b. */
export function compose(a: Transform, b: Transform): Transform {
  const m = new Float64Array(12);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 3; c++) {
      m[3 * r + c] = a[3 * r]! * b[c]! + a[3 * r + 1]! * b[3 + c]! + a[3 * r + 2]! * b[6 + c]!;
    }
  }
  m[9]! += b[9]!;
  m[10]! += b[10]!;
  m[11]! += b[11]!;
  return m;
}

function determinant(m: Transform): number {
  return (
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) -
    m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) +
    m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!)
  );
}

function missing(ref: Reference, from: string): MeshError {
  return new MeshError(
    '3mf-model',
    `${from} names object ${ref.objectId}, which this 3MF file does not define.`,
  );
}

/** The placed meshes of the build, with their total triangle count. */
export function resolveBuild(
  parts: Map<string, ModelPart>,
  rootKey: string,
): { instances: Instance[]; triangles: number } {
  const root = parts.get(rootKey)!;
  if (root.build === null) {
    throw new MeshError('3mf-model', 'This 3MF file has no build: it does not say which objects to print.');
  }
  if (root.build.length === 0) {
    throw new MeshError('3mf-model', "This 3MF file's build lists no object to print.");
  }
  const instances: Instance[] = [];
  let triangles = 0;
  const visiting = new Set<ModelObject>();

  let placements = 0;

  const place = (ref: Reference, parent: Transform, from: string, depth: number) => {
    const object = parts.get(ref.part)?.objects.get(ref.objectId);
    if (!object) throw missing(ref, from);
    if (visiting.has(object)) {
      throw new MeshError(
        '3mf-model',
        `Object ${ref.objectId} of this 3MF file contains itself (its components loop back to it).`,
      );
    }
    if (depth > MAX_DEPTH) {
      throw new MeshError(
        '3mf-model',
        `This 3MF file nests components more than ${MAX_DEPTH} deep: we cannot analyse it.`,
      );
    }
    if (++placements > MAX_PLACEMENTS) {
      throw new MeshError(
        '3mf-model',
        `This 3MF file's components place objects more than ${MAX_PLACEMENTS.toLocaleString('en-US')} times: we cannot analyse it.`,
      );
    }
    const transform = ref.transform ? compose(ref.transform, parent) : parent;
    if (object.kind === 'mesh') {
      if (instances.length >= MAX_INSTANCES) {
        throw new MeshError(
          '3mf-model',
          'This 3MF file places more than 100,000 objects: we cannot analyse it.',
        );
      }
      triangles += object.triangles.length / 3;
      if (triangles > MAX_TRIANGLES) {
        throw new MeshError(
          'too-many-triangles',
          `The model has more than ${MAX_TRIANGLES.toLocaleString('en-US')} triangles: please simplify it before uploading.`,
        );
      }
      instances.push({ mesh: object, transform, mirrored: determinant(transform) < 0 });
      return;
    }
    visiting.add(object);
    for (const child of object.components)
      place(child, transform, `Object ${ref.objectId} of this 3MF file`, depth + 1);
    visiting.delete(object);
  };

  for (const item of root.build) place(item, IDENTITY, "This 3MF file's build", 0);
  return { instances, triangles };
}

/** Hands every placed triangle to sink, in batches that never cross a multiple of BATCH_TRIANGLES. */
export function emitInstances(instances: Instance[], sink: TriangleSink): void {
  const batch = new Float64Array(9 * BATCH_TRIANGLES);
  let n = 0;
  for (const { mesh, transform: m, mirrored } of instances) {
    const v = mesh.vertices;
    const t = mesh.triangles;
    const second = mirrored ? 2 : 1;
    const third = mirrored ? 1 : 2;
    for (let k = 0; k < t.length; k += 3) {
      for (let c = 0; c < 3; c++) {
        const i = 3 * t[k + (c === 0 ? 0 : c === 1 ? second : third)]!;
        const x = v[i]!;
        const y = v[i + 1]!;
        const z = v[i + 2]!;
        const px = x * m[0]! + y * m[3]! + z * m[6]! + m[9]!;
        const py = x * m[1]! + y * m[4]! + z * m[7]! + m[10]!;
        const pz = x * m[2]! + y * m[5]! + z * m[8]! + m[11]!;
        if (
          !(
            Math.abs(px) <= MAX_COORDINATE &&
            Math.abs(py) <= MAX_COORDINATE &&
            Math.abs(pz) <= MAX_COORDINATE
          )
        ) {
          const bad = Math.abs(px) <= MAX_COORDINATE ? (Math.abs(py) <= MAX_COORDINATE ? pz : py) : px;
          throw badCoordinate(bad, 'after its 3MF transform');
        }
        const o = 9 * n + 3 * c;
        batch[o] = px;
        batch[o + 1] = py;
        batch[o + 2] = pz;
      }
      if (++n === BATCH_TRIANGLES) {
        sink.triangles(batch, null, n);
        n = 0;
      }
    }
  }
  if (n > 0) sink.triangles(batch, null, n);
}

/** Triangles per call of measureInstances' loops (see there). */
const BLOCK = 16384;

/**
 * The analysis' pass over the placed meshes, from their vertices and indices rather than a triangle soup:
 * each vertex a triangle uses is placed once per instance (the same arithmetic, check and error as
 * emitInstances gives each corner) and welded once, in the order of first use; then the topology takes the
 * faces as ids and the geometry reads the placed vertices through the indices. The answers are those of
 * emitInstances into a MeasureSink, bit for bit, at a fraction of the work (a vertex serves ~6 corners).
 * Every loop runs in blocks, one call each: a function that runs one long loop once is compiled on the
 * stack (OSR) and thrown away when it leaves the loop, every time; called often, it is compiled whole, once.
 */
export function measureInstances(instances: Instance[], geometry: Geometry, topology: Topology | null): void {
  let capacity = 0;
  // The vertices to weld, at most: each instance's, or its corners if fewer.
  let welds = 0;
  for (const { mesh } of instances) {
    capacity = Math.max(capacity, mesh.vertices.length / 3);
    welds += Math.min(mesh.vertices.length / 3, mesh.triangles.length);
  }
  topology?.expectVertices(welds);
  const placed = new Float64Array(3 * capacity);
  // The used vertices in order of first use.
  const order = new Int32Array(capacity);
  const ids = new Int32Array(capacity);
  // seen[i] === epoch: vertex i is used by the current instance. Never cleared, so that an instance costs
  // its triangles, not its mesh's vertex count.
  const seen = new Int32Array(capacity);
  let epoch = 0;
  for (const [n, { mesh, transform, mirrored }] of instances.entries()) {
    epoch++;
    const t = mesh.triangles;
    const second = mirrored ? 2 : 1;
    const third = mirrored ? 1 : 2;
    let used = 0;
    for (let k = 0; k < t.length; k += 3 * BLOCK) {
      const end = Math.min(t.length, k + 3 * BLOCK);
      const from = used;
      used = firstUses(t, k, end, second, third, seen, epoch, order, used);
      place(mesh.vertices, transform, order, from, used, placed);
      topology?.weldVertices(placed, order, from, used, ids);
    }
    topology?.indexedFaces(t, ids, second, third);
    // Every face is in: the census can run on the helper thread while this one measures (census-thread.ts).
    if (n === instances.length - 1) topology?.beginCensus();
    geometry.addIndexed(placed, t, second, third);
  }
}

/** Appends the vertices triangles [k, end) of t use first (in corner order) to order; returns its length. */
function firstUses(
  t: Int32Array,
  k: number,
  end: number,
  second: number,
  third: number,
  seen: Int32Array,
  epoch: number,
  order: Int32Array,
  used: number,
): number {
  for (; k < end; k += 3) {
    const a = t[k]!;
    if (seen[a] !== epoch) {
      seen[a] = epoch;
      order[used++] = a;
    }
    const b = t[k + second]!;
    if (seen[b] !== epoch) {
      seen[b] = epoch;
      order[used++] = b;
    }
    const c = t[k + third]!;
    if (seen[c] !== epoch) {
      seen[c] = epoch;
      order[used++] = c;
    }
  }
  return used;
}

/** Places the vertices order[from, to) of v by m into placed (at their own index), checked. */
function place(
  v: Float64Array,
  m: Transform,
  order: Int32Array,
  from: number,
  to: number,
  placed: Float64Array,
) {
  const m0 = m[0]!;
  const m1 = m[1]!;
  const m2 = m[2]!;
  const m3 = m[3]!;
  const m4 = m[4]!;
  const m5 = m[5]!;
  const m6 = m[6]!;
  const m7 = m[7]!;
  const m8 = m[8]!;
  const m9 = m[9]!;
  const m10 = m[10]!;
  const m11 = m[11]!;
  for (let j = from; j < to; j++) {
    const i = 3 * order[j]!;
    const x = v[i]!;
    const y = v[i + 1]!;
    const z = v[i + 2]!;
    const px = x * m0 + y * m3 + z * m6 + m9;
    const py = x * m1 + y * m4 + z * m7 + m10;
    const pz = x * m2 + y * m5 + z * m8 + m11;
    if (
      !(Math.abs(px) <= MAX_COORDINATE && Math.abs(py) <= MAX_COORDINATE && Math.abs(pz) <= MAX_COORDINATE)
    ) {
      const bad = Math.abs(px) <= MAX_COORDINATE ? (Math.abs(py) <= MAX_COORDINATE ? pz : py) : px;
      throw badCoordinate(bad, 'after its 3MF transform');
    }
    placed[i] = px;
    placed[i + 1] = py;
    placed[i + 2] = pz;
  }
}
