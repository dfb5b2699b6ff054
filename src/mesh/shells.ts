// Shells: the connected components of the welded mesh, each measured on its own, so that a customer's
// geometry cannot choose the price (issue #23 §6). One signed volume summed over the whole mesh let a
// shell wound inside out subtract itself from the others; here:
// - a closed shell (every edge used as often in one direction as in the other) has a meaningful sign.
//   One that no other closed shell encloses is solid: counted in full, turned outward if it was inside out
//   (a "corrected" shell). One enclosed by a solid shell and wound the other way is a void (a hollow
//   model): its volume is taken off, all of a solid's voids never more than that solid. Inside a void, any
//   shell is solid again (an island). A shell enclosed by a solid and wound the same way is ambiguous (an
//   embedded body, or a void drawn inside out): it counts as solid, as it always did. Enclosure is a
//   strict bounding-box test, then a ray-parity test of up to 8 of its vertices (its extremes first):
//   every one must be inside, none on the surface; voids of one solid whose boxes overlap count as solid.
// - a closed component with edges of more than two faces (parts touching along an edge, or copies of a
//   surface welded onto each other, which could wrap space several times) is first cut along those edges
//   into the shells its two-face edges join; a shell still holding such an edge is never a void.
// - an open shell has no inside: counted as |its signed volume| (around the geometry's origin, as the
//   whole sum is), never corrected.
// Anything ambiguous counts as solid: the geometry can raise the volume, never lower it. With only closed
// shells wound outward (the common case), the answer is the whole mesh's signed volume, bit for bit as
// before; the enclosure tests run only when some closed shell is wound inward, within a work budget past
// which every closed shell counts as solid. One shell (most models) costs a union-find pass and nothing
// else: its sign is the whole sum's.

import { NON_MANIFOLD, UNBALANCED } from './edge-census.ts';
import { growInt32 } from './grow.ts';
import { keepShape } from './keep-shapes.ts';

/**
 * Union-find parents as id + 1 (0: a vertex no face uses); each component's root is its smallest id. It may
 * run past the mesh's last vertex id (0s).
 */
export interface ShellLabels {
  parent: Int32Array;
  /** Components that have at least one face. */
  count: number;
  /** The faces' winding sum (windingOf): 0 when every edge's faces run as often one way as the other. */
  winding: number;
  /** Its seeds, for the shells' own sums. */
  seeds: readonly [number, number];
}

export interface ShellSummary {
  /** Connected components of the welded mesh. */
  shells: number;
  /** Closed shells found inside out and turned outward. */
  correctedShells: number;
  /** Enclosed voids whose volume was taken off. */
  voidShells: number;
  /** Six times the model's volume (mm3), >= 0. */
  volume6: number;
}

/** What the geometry pass measured: the whole mesh's signed volume around its origin, and its box. */
export interface WholeMesh {
  volume6: number;
  origin: readonly [number, number, number];
  min: readonly [number, number, number];
  max: readonly [number, number, number];
}

/** Root of x, halving the path on the way. */
function find(parent: Int32Array, x: number): number {
  for (;;) {
    const p = parent[x]! - 1;
    if (p === x) return x;
    const g = parent[p]! - 1;
    parent[x] = g + 1;
    x = g;
  }
}

// Winding sums: each directed edge u -> v adds g(u, v) = h(u) h'(v) - h(v) h'(u) (32-bit, wrapping), with
// h, h' seeded hashes of the ids. g(v, u) = -g(u, v), so an edge used once each way adds 0, and a sum of 0
// says every edge is balanced; one that is not (a hole, a face wound the wrong way) leaves a pseudo-random
// term, which the others cancel with odds of 2^-31 (the seeds are new each time, so no file can aim for it).
// Edges of more than two faces are checked exactly where it matters (splitAtNonManifoldEdges).

function hashA(x: number, seed: number): number {
  const h = Math.imul(x ^ seed, 0x9e3779b1);
  return h ^ (h >>> 16);
}

function hashB(x: number, seed: number): number {
  const h = Math.imul(x ^ seed, 0x85ebca77);
  return h ^ (h >>> 15);
}

/**
 * The winding sum of one face a -> b -> c: g(a, b) + g(b, c) + g(c, a), which is the cross product
 * (B - A) x (C - A) of the corners' points A = (h(a), h'(a))..., 32-bit.
 */
function windingOf(a: number, b: number, c: number, s1: number, s2: number): number {
  const ha = hashA(a, s1);
  const ka = hashB(a, s2);
  return (
    (Math.imul(hashA(b, s1) - ha, hashB(c, s2) - ka) - Math.imul(hashA(c, s1) - ha, hashB(b, s2) - ka)) | 0
  );
}

/**
 * Labels the components of faces given as vertex id triples (union-find, linking the larger root under the
 * smaller), and sums their winding.
 */
export function labelShells(faces: Int32Array, faceCount: number, vertexCount: number): ShellLabels {
  const labeler = new ShellLabeler(vertexCount);
  labeler.add(faces, 0, faceCount, vertexCount);
  return labeler.labels(vertexCount);
}

/**
 * labelShells in steps, as the faces come: a model read as it arrives (an upload) has its shells labelled
 * then, not after its last byte. The union-find needs no face after the ones it has.
 */
export class ShellLabeler {
  private parent: Int32Array;
  /**
   * Faces seen, unions, the winding sum and its two seeds: int32s, kept in an array rather than in fields,
   * which a value past a small integer's range would move to another map (keep-shapes.ts).
   */
  private readonly sums = new Int32Array(5);

  /** vertices: how many are expected (it grows past them). */
  constructor(vertices = 0) {
    this.parent = new Int32Array(vertices);
    this.sums[SEED_1] = (Math.random() * 0x100000000) | 0;
    this.sums[SEED_2] = (Math.random() * 0x100000000) | 0;
  }

  /** Labels faces from .. to, whose ids are below vertexCount. */
  add(faces: Int32Array, from: number, to: number, vertexCount: number): void {
    if (vertexCount > this.parent.length) this.parent = growInt32(this.parent, vertexCount);
    const parent = this.parent;
    const sums = this.sums;
    const s1 = sums[SEED_1]!;
    const s2 = sums[SEED_2]!;
    let seen = sums[SEEN]!;
    let unions = sums[UNIONS]!;
    let winding = sums[WINDING]!;
    for (let k = 3 * from, end = 3 * to; k < end; k += 3) {
      let a = faces[k]!;
      let b = faces[k + 1]!;
      let c = faces[k + 2]!;
      winding = (winding + windingOf(a, b, c, s1, s2)) | 0;
      if (parent[a] === 0) {
        parent[a] = a + 1;
        seen++;
      } else a = find(parent, a);
      if (parent[b] === 0) {
        parent[b] = b + 1;
        seen++;
      } else b = find(parent, b);
      if (parent[c] === 0) {
        parent[c] = c + 1;
        seen++;
      } else c = find(parent, c);
      // Usually all three share one root already.
      if (a !== b) {
        if (a < b) {
          parent[b] = a + 1;
          if (c === b) c = a;
        } else {
          parent[a] = b + 1;
          if (c === a) c = b;
          a = b;
        }
        unions++;
      }
      if (a !== c) {
        if (a < c) parent[c] = a + 1;
        else parent[a] = c + 1;
        unions++;
      }
    }
    sums[SEEN] = seen;
    sums[UNIONS] = unions;
    sums[WINDING] = winding;
  }

  /** The labels of the faces added (parent at least vertexCount long; ids past the last used are 0). */
  labels(vertexCount: number): ShellLabels {
    if (vertexCount > this.parent.length) this.parent = growInt32(this.parent, vertexCount);
    const sums = this.sums;
    return {
      parent: this.parent,
      count: sums[SEEN]! - sums[UNIONS]!,
      winding: sums[WINDING]!,
      seeds: [sums[SEED_1]!, sums[SEED_2]!],
    };
  }
}

const SEEN = 0;
const UNIONS = 1;
const WINDING = 2;
const SEED_1 = 3;
const SEED_2 = 4;

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new ShellLabeler());

/** |v6| at or below this fraction of the box's volume has no sign worth trusting (a flat closed surface). */
const FLAT = 1e-12;

function flatLimit(whole: WholeMesh): number {
  const size = Math.max(
    whole.max[0] - whole.min[0],
    whole.max[1] - whole.min[1],
    whole.max[2] - whole.min[2],
  );
  return 6 * FLAT * size * size * size;
}

/** One shell: the whole mesh's volume, turned outward if it is closed and inside out. */
export function singleShell(count: number, closed: boolean, whole: WholeMesh): ShellSummary {
  const corrected = count === 1 && closed && whole.volume6 < -flatLimit(whole) ? 1 : 0;
  return { shells: count, correctedShells: corrected, voidShells: 0, volume6: Math.abs(whole.volume6) };
}

/** Pair tests (bounding boxes) and triangle tests (rays) one analysis may spend on enclosure. */
const BOX_BUDGET = 20_000_000;
const RAY_BUDGET = 20_000_000;
const SAMPLES = 8;
/** Ray directions, none along an axis or a diagonal (a second and third when a ray grazes an edge). */
const DIRECTIONS = [
  [0.5773502691896258, 0.6172133998483676, 0.5345224838248488],
  [-0.3015113445777636, 0.9045340337332909, -0.3015113445777636],
  [0.8164965809277261, -0.4082482904638631, 0.4082482904638631],
].map(([x, y, z]) => {
  const n = Math.hypot(x!, y!, z!);
  return [x! / n, y! / n, z! / n] as const;
});
/** Barycentric margin within which a ray is taken to graze an edge (then another direction is tried). */
const EDGE = 1e-9;
/** cos^2 of the angle between a ray and a triangle's normal below which the ray runs along the triangle. */
const PARALLEL = 1e-18;

type Positions = Float64Array | Float32Array;

export { NON_MANIFOLD, UNBALANCED };

export interface ShellInput {
  faces: Int32Array;
  faceCount: number;
  vertexCount: number;
  labels: ShellLabels;
  /** Per vertex: UNBALANCED (an odd edge), NON_MANIFOLD if it is the smaller end of such an edge (edgeCensus). */
  marks: Uint8Array;
  /** x, y, z of each vertex id at 3 * id. */
  positions: Positions;
}

/** Several shells, or one with edges of more than two faces: each measured on its own (see the top). */
export function resolveShells(input: ShellInput, whole: WholeMesh): ShellSummary {
  const { faces, faceCount, vertexCount, positions: p, marks } = input;
  const parent = input.labels.parent;
  // Components: roots are the smallest ids of their components, so a root is labelled before its members.
  const label = new Int32Array(vertexCount);
  let components = 0;
  for (let v = 0; v < vertexCount; v++) {
    if (parent[v] === 0) {
      label[v] = -1;
      continue;
    }
    const root = find(parent, v);
    label[v] = root === v ? components++ : label[root]!;
  }
  let flags: Uint8Array = new Uint8Array(components);
  for (let v = 0; v < vertexCount; v++) if (marks[v] !== 0) flags[label[v]!]! |= marks[v]!;
  const faceShell = new Int32Array(faceCount);
  const winding = new Int32Array(components);
  const [s1, s2] = input.labels.seeds;
  for (let f = 0; f < faceCount; f++) {
    const a = faces[3 * f]!;
    const s = label[a]!;
    faceShell[f] = s;
    winding[s] = (winding[s]! + windingOf(a, faces[3 * f + 1]!, faces[3 * f + 2]!, s1, s2)) | 0;
  }
  for (let s = 0; s < components; s++) if (winding[s] !== 0) flags[s]! |= UNBALANCED;
  // A closed component with edges of more than two faces (parts touching along an edge, or surfaces
  // welded onto each other) is cut along those edges into the shells its two-face edges join.
  let labels = components;
  for (let s = 0; s < components; s++) {
    if (flags[s] === NON_MANIFOLD) {
      ({ labels, flags } = splitAtNonManifoldEdges(input, faceShell, flags, components));
      break;
    }
  }

  // Signed volume of each shell around the geometry's origin, so that they add up to the whole's.
  const sum = new Float64Array(labels);
  const compensation = new Float64Array(labels);
  const faceTotal = new Int32Array(labels);
  const [ox, oy, oz] = whole.origin;
  for (let f = 0; f < faceCount; f++) {
    const a = 3 * faces[3 * f]!;
    const b = 3 * faces[3 * f + 1]!;
    const c = 3 * faces[3 * f + 2]!;
    const ax = p[a]!;
    const ay = p[a + 1]!;
    const az = p[a + 2]!;
    const ux = p[b]! - ax;
    const uy = p[b + 1]! - ay;
    const uz = p[b + 2]! - az;
    const vx = p[c]! - ax;
    const vy = p[c + 1]! - ay;
    const vz = p[c + 2]! - az;
    const x =
      (ax - ox) * (uy * vz - uz * vy) + (ay - oy) * (uz * vx - ux * vz) + (az - oz) * (ux * vy - uy * vx);
    const s = faceShell[f]!;
    const t = sum[s]! + x;
    compensation[s]! += Math.abs(sum[s]!) >= Math.abs(x) ? sum[s]! - t + x : x - t + sum[s]!;
    sum[s] = t;
    faceTotal[s]!++;
  }
  const volume = new Float64Array(labels);
  let shells = 0;
  for (let s = 0; s < labels; s++) {
    volume[s] = sum[s]! + compensation[s]!;
    if (faceTotal[s]! > 0) shells++;
  }

  // Each shell's count: open shells at |v|; closed ones by their role, solid unless found to be a void.
  const flat = flatLimit(whole);
  let correction = 0;
  let inward = 0;
  for (let s = 0; s < labels; s++) {
    const v = volume[s]!;
    if ((flags[s]! & UNBALANCED) !== 0) {
      if (v < 0) correction -= 2 * v;
    } else if (v < -flat) {
      inward++;
    }
  }
  let corrected = 0;
  let voids = 0;
  if (inward > 0) {
    const roles = closedRoles(input, faceShell, labels, flags, volume, flat);
    for (let s = 0; s < labels; s++) {
      if ((flags[s]! & UNBALANCED) !== 0) continue;
      const v = volume[s]!;
      if (roles !== null && roles.role[s] === VOID) {
        voids++;
        if (v > flat) corrected++;
        correction += -Math.abs(v) - v;
      } else {
        if (v < -flat) corrected++;
        correction += Math.abs(v) - v;
      }
    }
    if (roles !== null) correction += roles.clampBack;
  }
  return {
    shells,
    correctedShells: corrected,
    voidShells: voids,
    volume6: Math.max(0, whole.volume6 + correction),
  };
}

/** 2^23 > MAX_TRIANGLES: an edge entry packs (larger end x 2 + direction) x FACE_BITS + face in a double. */
const FACE_BITS = 2 ** 23;

/**
 * Relabels the faces of the closed components flagged NON_MANIFOLD alone: two faces are in one shell when
 * a chain of edges with exactly two faces, one each way, joins them. Gives the new shells' flags.
 */
function splitAtNonManifoldEdges(
  input: ShellInput,
  faceShell: Int32Array,
  componentFlags: Uint8Array,
  components: number,
): { labels: number; flags: Uint8Array } {
  const { faces, faceCount, vertexCount } = input;
  const cut = (f: number) => componentFlags[faceShell[f]!] === NON_MANIFOLD;
  // Edges of those faces grouped under their smaller end (as edgeCensus does), with their face.
  const start = new Int32Array(vertexCount + 1);
  let entries = 0;
  for (let f = 0; f < faceCount; f++) {
    if (!cut(f)) continue;
    const a = faces[3 * f]!;
    const b = faces[3 * f + 1]!;
    const c = faces[3 * f + 2]!;
    start[a < b ? a : b]!++;
    start[b < c ? b : c]!++;
    start[c < a ? c : a]!++;
    entries += 3;
  }
  let total = 0;
  for (let v = 0; v <= vertexCount; v++) {
    total += start[v]!;
    start[v] = total;
  }
  const packed = new Float64Array(entries);
  for (let f = faceCount - 1; f >= 0; f--) {
    if (!cut(f)) continue;
    for (let k = 0; k < 3; k++) {
      const from = faces[3 * f + k]!;
      const to = faces[3 * f + (k === 2 ? 0 : k + 1)]!;
      if (from < to) packed[--start[from]!] = (2 * to + 1) * FACE_BITS + f;
      else packed[--start[to]!] = 2 * from * FACE_BITS + f;
    }
  }
  for (let v = 0; v < vertexCount; v++) {
    const from = start[v]!;
    const to = start[v + 1]!;
    if (to - from > 16) packed.subarray(from, to).sort();
    else {
      for (let i = from + 1; i < to; i++) {
        const x = packed[i]!;
        let j = i - 1;
        while (j >= from && packed[j]! > x) {
          packed[j + 1] = packed[j]!;
          j--;
        }
        packed[j + 1] = x;
      }
    }
  }
  const edgeOf = (k: number) => Math.floor(packed[k]! / (2 * FACE_BITS));
  const faceOf = (k: number) => packed[k]! % FACE_BITS;
  const forwardOf = (k: number) => Math.floor(packed[k]! / FACE_BITS) % 2;
  // Join the two faces of each two-face edge used once each way.
  const joined = new Int32Array(faceCount);
  for (let f = 0; f < faceCount; f++) joined[f] = f + 1;
  for (let k = 0; k < entries; ) {
    let run = k + 1;
    while (run < entries && edgeOf(run) === edgeOf(k)) run++;
    if (run - k === 2 && forwardOf(k) !== forwardOf(k + 1)) {
      const a = find(joined, faceOf(k));
      const b = find(joined, faceOf(k + 1));
      if (a < b) joined[b] = a + 1;
      else if (b < a) joined[a] = b + 1;
    }
    k = run;
  }
  // New labels after the components' (whose labels these faces leave).
  let labels = components;
  const relabel = new Int32Array(faceCount).fill(-1);
  for (let f = 0; f < faceCount; f++) {
    if (!cut(f)) continue;
    const root = find(joined, f);
    if (relabel[root] === -1) relabel[root] = labels++;
    faceShell[f] = relabel[root]!;
  }
  const flags = new Uint8Array(labels);
  flags.set(componentFlags);
  for (let s = 0; s < components; s++) if (componentFlags[s] === NON_MANIFOLD) flags[s] = 0;
  // Each edge's faces, shell by shell: once each way, or the shell is open; more than two, non-manifold.
  // uses and forward count per shell, reset after each edge.
  const uses = new Int32Array(labels);
  const forward = new Int32Array(labels);
  for (let k = 0; k < entries; ) {
    let run = k + 1;
    while (run < entries && edgeOf(run) === edgeOf(k)) run++;
    for (let i = k; i < run; i++) {
      const s = faceShell[faceOf(i)]!;
      uses[s]!++;
      forward[s]! += forwardOf(i);
    }
    for (let i = k; i < run; i++) {
      const s = faceShell[faceOf(i)]!;
      if (uses[s] === 0) continue;
      if (2 * forward[s]! !== uses[s]) flags[s]! |= UNBALANCED;
      if (uses[s]! > 2) flags[s]! |= NON_MANIFOLD;
      uses[s] = 0;
      forward[s] = 0;
    }
    k = run;
  }
  return { labels, flags };
}

const SOLID = 0;
const VOID = 1;

/**
 * The role (SOLID or VOID) of every closed shell, and how much of the voids' volume (x 6) is given back
 * where a solid's voids added up to more than the solid; null when the work budget ran out.
 */
function closedRoles(
  input: ShellInput,
  faceShell: Int32Array,
  shells: number,
  flags: Uint8Array,
  volume: Float64Array,
  flat: number,
): { role: Uint8Array; clampBack: number } | null {
  const { faces, faceCount, positions: p } = input;
  const role = new Uint8Array(shells);
  // Closed shells with a sign: the only ones that can enclose or be enclosed.
  const signed = new Uint8Array(shells);
  for (let s = 0; s < shells; s++)
    signed[s] = (flags[s]! & UNBALANCED) === 0 && Math.abs(volume[s]!) > flat ? 1 : 0;

  // Boxes and extreme vertices (min x, max x, min y, ...) of each shell.
  const box = new Float64Array(6 * shells);
  const extreme = new Int32Array(6 * shells).fill(-1);
  for (let k = 0; k < 6 * shells; k += 6) {
    box.fill(Infinity, k, k + 3);
    box.fill(-Infinity, k + 3, k + 6);
  }
  for (let k = 0; k < 3 * faceCount; k++) {
    const s = faceShell[(k - (k % 3)) / 3]!;
    if (signed[s] === 0) continue;
    const v = faces[k]!;
    for (let axis = 0; axis < 3; axis++) {
      const x = p[3 * v + axis]!;
      if (x < box[6 * s + axis]!) {
        box[6 * s + axis] = x;
        extreme[6 * s + 2 * axis] = v;
      }
      if (x > box[6 * s + 3 + axis]!) {
        box[6 * s + 3 + axis] = x;
        extreme[6 * s + 2 * axis + 1] = v;
      }
    }
  }
  // Faces grouped by shell (a counting sort), for the ray tests.
  const start = new Int32Array(shells + 1);
  for (let f = 0; f < faceCount; f++) {
    const s = faceShell[f]!;
    if (signed[s] === 1) start[s + 1]!++;
  }
  for (let s = 0; s < shells; s++) start[s + 1]! += start[s]!;
  const byShell = new Int32Array(start[shells]!);
  const next = start.slice(0, shells);
  for (let f = 0; f < faceCount; f++) {
    const s = faceShell[f]!;
    if (signed[s] === 1) byShell[next[s]!++] = f;
  }
  const list: number[] = [];
  for (let s = 0; s < shells; s++) if (signed[s] === 1) list.push(s);

  let boxWork = 0;
  let rayWork = 0;
  /** bbox of a strictly inside bbox of b. */
  const boxInside = (a: number, b: number) => {
    for (let axis = 0; axis < 3; axis++) {
      if (!(box[6 * a + axis]! > box[6 * b + axis]! && box[6 * a + 3 + axis]! < box[6 * b + 3 + axis]!))
        return false;
    }
    return true;
  };
  const boxesOverlap = (a: number, b: number) => {
    for (let axis = 0; axis < 3; axis++) {
      if (box[6 * a + axis]! > box[6 * b + 3 + axis]! || box[6 * b + axis]! > box[6 * a + 3 + axis]!)
        return false;
    }
    return true;
  };
  const samplesOf = (s: number): number[] => {
    const out: number[] = [];
    const add = (v: number) => {
      if (v >= 0 && out.length < SAMPLES && !out.includes(v)) out.push(v);
    };
    for (let k = 0; k < 6; k++) add(extreme[6 * s + k]!);
    const first = start[s]!;
    const count = start[s + 1]! - first;
    for (let k = 1; out.length < SAMPLES && k <= 2 * SAMPLES && count > 0; k++) {
      const f = byShell[first + Math.floor((k * count) / (2 * SAMPLES + 1))]!;
      add(faces[3 * f + (k % 3)]!);
    }
    return out;
  };
  /** 1 inside shell c, 0 outside, -1 on its surface or undecided; throws BUDGET when out of work. */
  const pointIn = (x: number, y: number, z: number, c: number): number => {
    const first = start[c]!;
    const last = start[c + 1]!;
    rayWork += last - first;
    if (rayWork > RAY_BUDGET) throw BUDGET;
    const size = Math.max(
      box[6 * c + 3]! - box[6 * c]!,
      box[6 * c + 4]! - box[6 * c + 1]!,
      box[6 * c + 5]! - box[6 * c + 2]!,
    );
    const near = 1e-9 * size;
    for (const [dx, dy, dz] of DIRECTIONS) {
      let crossings = 0;
      let grazed = false;
      for (let k = first; k < last; k++) {
        const f = 3 * byShell[k]!;
        const a = 3 * faces[f]!;
        const b = 3 * faces[f + 1]!;
        const d = 3 * faces[f + 2]!;
        const ax = p[a]!;
        const ay = p[a + 1]!;
        const az = p[a + 2]!;
        const e1x = p[b]! - ax;
        const e1y = p[b + 1]! - ay;
        const e1z = p[b + 2]! - az;
        const e2x = p[d]! - ax;
        const e2y = p[d + 1]! - ay;
        const e2z = p[d + 2]! - az;
        // Möller-Trumbore.
        const px = dy * e2z - dz * e2y;
        const py = dz * e2x - dx * e2z;
        const pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        const tx = x - ax;
        const ty = y - ay;
        const tz = z - az;
        // |det| = |normal| x |cos(ray, normal)|.
        const nx = e1y * e2z - e1z * e2y;
        const ny = e1z * e2x - e1x * e2z;
        const nz = e1x * e2y - e1y * e2x;
        const nn = nx * nx + ny * ny + nz * nz;
        if (nn === 0) continue; // no area: nothing to cross
        if (det * det <= PARALLEL * nn) {
          // The ray runs along the triangle's plane: it matters only if the point lies in that plane.
          if (Math.abs(tx * nx + ty * ny + tz * nz) <= near * Math.sqrt(nn)) {
            grazed = true;
            break;
          }
          continue;
        }
        const inv = 1 / det;
        const u = (tx * px + ty * py + tz * pz) * inv;
        if (u < -EDGE || u > 1 + EDGE) continue;
        const qx = ty * e1z - tz * e1y;
        const qy = tz * e1x - tx * e1z;
        const qz = tx * e1y - ty * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < -EDGE || u + v > 1 + EDGE) continue;
        const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (Math.abs(t) <= near) return -1; // on the surface
        if (t < 0) continue;
        if (u < EDGE || v < EDGE || u + v > 1 - EDGE) {
          grazed = true;
          break;
        }
        crossings++;
      }
      if (!grazed) return crossings & 1;
    }
    return -1;
  };
  /** Whether every sample (a vertex id) lies inside closed shell c. */
  const enclosedBy = (c: number, samples: number[]): boolean => {
    for (const v of samples) {
      if (pointIn(p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!, c) !== 1) return false;
    }
    return true;
  };

  try {
    // Shells whose role needs their enclosers: those wound inward, whatever lies in their boxes, and
    // (below) the enclosers of these. Any other closed shell is wound outward among outward ones: solid.
    const inward = list.filter((s) => volume[s]! < 0);
    const needed = new Set<number>(inward);
    for (const s of list) {
      boxWork += inward.length;
      if (boxWork > BOX_BUDGET) throw BUDGET;
      if (!needed.has(s) && inward.some((n) => boxInside(s, n))) needed.add(s);
    }
    const enclosers = new Map<number, number[]>();
    const queue = [...needed];
    while (queue.length > 0) {
      const s = queue.pop()!;
      if (enclosers.has(s)) continue;
      const samples = samplesOf(s);
      const found: number[] = [];
      boxWork += list.length;
      if (boxWork > BOX_BUDGET) throw BUDGET;
      for (const c of list) {
        if (c !== s && boxInside(s, c) && enclosedBy(c, samples)) found.push(c);
      }
      enclosers.set(s, found);
      for (const c of found) if (!enclosers.has(c)) queue.push(c);
    }
    // Roles, outermost first: the immediate encloser is the one enclosed by all the others.
    const byDepth = [...enclosers.keys()].sort((a, b) => enclosers.get(a)!.length - enclosers.get(b)!.length);
    const parentOf = new Map<number, number>();
    let d = 0;
    while (d < byDepth.length) {
      const depth = enclosers.get(byDepth[d]!)!.length;
      let e = d;
      while (e < byDepth.length && enclosers.get(byDepth[e]!)!.length === depth) e++;
      const voidsOf = new Map<number, number[]>();
      for (let k = d; k < e; k++) {
        const s = byDepth[k]!;
        role[s] = SOLID;
        if (depth === 0) continue;
        const mine = enclosers.get(s)!;
        const direct = mine.filter((c) => {
          const theirs = enclosers.get(c)!;
          return theirs.length === depth - 1 && theirs.every((x) => mine.includes(x));
        });
        if (direct.length !== 1) continue; // enclosers that overlap: ambiguous, solid
        const c = direct[0]!;
        // Inside a void anything is solid; inside a solid, a manifold shell wound the other way is a void.
        if (
          role[c] === SOLID &&
          Math.sign(volume[s]!) !== Math.sign(volume[c]!) &&
          (flags[s]! & NON_MANIFOLD) === 0
        ) {
          role[s] = VOID;
          parentOf.set(s, c);
          const siblings = voidsOf.get(c) ?? [];
          siblings.push(s);
          voidsOf.set(c, siblings);
        }
      }
      // Voids of one solid whose boxes overlap may overlap themselves (their common part is solid under
      // any fill rule): all of them count as solid.
      for (const siblings of voidsOf.values()) {
        boxWork += siblings.length * siblings.length;
        if (boxWork > BOX_BUDGET) throw BUDGET;
        const overlapping = new Set<number>();
        for (let i = 0; i < siblings.length; i++) {
          for (let j = i + 1; j < siblings.length; j++) {
            if (boxesOverlap(siblings[i]!, siblings[j]!)) {
              overlapping.add(siblings[i]!);
              overlapping.add(siblings[j]!);
            }
          }
        }
        for (const s of overlapping) {
          role[s] = SOLID;
          parentOf.delete(s);
        }
      }
      d = e;
    }
    // A solid's voids never take off more than the solid.
    const taken = new Map<number, number>();
    for (const [s, c] of parentOf) taken.set(c, (taken.get(c) ?? 0) + Math.abs(volume[s]!));
    let clampBack = 0;
    for (const [c, sum] of taken) clampBack += Math.max(0, sum - Math.abs(volume[c]!));
    return { role, clampBack };
  } catch (err) {
    if (err === BUDGET) return null;
    throw err;
  }
}

const BUDGET = new Error('shell enclosure budget');
