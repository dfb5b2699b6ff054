import { Document, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression } from '@gltf-transform/extensions';
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import type { WeldedMesh } from '../../mesh/topology.ts';
import { VertexWelder } from '../../mesh/vertex-welder.ts';
import { VIEW_MAX_TRIANGLES, type ViewFacts, viewExtras } from './view-facts.ts';

// The 3D viewer's copy of a model: our own parser's triangles welded into an indexed mesh, simplified
// above VIEW_MAX_TRIANGLES, reordered for the GPU's vertex cache and written as a GLB with meshopt
// compression (EXT_meshopt_compression). The browser then never parses the original file: what the server
// accepted is what the viewer draws, and a 64 MB upload becomes a download of a few megabytes. Whether the
// simplifier took triangles off is written into the GLB (view-facts.ts), where the viewer's words come from.
// Positions stay float32 (no quantisation): exact sizes, and still small once meshopt-encoded.

/** The simplifier's error budget, relative to the model's size: 0.5 % keeps every visible feature. */
const SIMPLIFY_ERROR = 0.005;

/** A big model's first, coarse view: drawn at once while its full view is made and downloaded. */
export const COARSE_VIEW_TRIANGLES = 30_000;
/** Past this many triangles a model gets a coarse view first (a smaller one's full view is as quick). */
export const COARSE_VIEW_ABOVE = 150_000;

export type ViewMesh = { glb: Uint8Array; triangles: number; simplified: boolean };

export type Indexed = { positions: Float32Array; indices: Uint32Array };

/**
 * Welds a triangle soup (9 numbers a triangle), leaving out triangles that collapse to a line or point and
 * repeats of a triangle already kept (they draw nothing new, and thousands around one vertex made the vertex
 * cache optimiser take seconds).
 */
export function weldSoup(soup: Float32Array | Float64Array): Indexed {
  const n = Math.floor(soup.length / 9);
  const welder = new VertexWelder(Math.max(1024, n >>> 1));
  const indices = new Uint32Array(3 * n);
  for (let i = 0; i < 3 * n; i++) indices[i] = welder.weld(soup[3 * i]!, soup[3 * i + 1]!, soup[3 * i + 2]!);
  return {
    positions: Float32Array.from(welder.coords.subarray(0, 3 * welder.count)),
    indices: keepDrawable(indices, n),
  };
}

/**
 * The analysis' own welded mesh (its watertight check's faces and positions) as the view's indexed mesh, with
 * the same faces left out as weldSoup leaves out: the file is not read, parsed or welded again. The faces are
 * reused in place (the analysis is done with them).
 */
export function indexedOf(mesh: WeldedMesh): Indexed {
  const n = mesh.faces.length / 3;
  const indices = new Uint32Array(mesh.faces.buffer, mesh.faces.byteOffset, 3 * n);
  const positions =
    mesh.positions instanceof Float32Array && mesh.positions.length === 3 * mesh.vertexCount
      ? mesh.positions
      : Float32Array.from(mesh.positions.subarray(0, 3 * mesh.vertexCount));
  return { positions, indices: keepDrawable(indices, n) };
}

/**
 * Leaves out of n faces (written over `indices`) those with a repeated corner and repeats of a face already
 * kept; a face is kept starting at its smallest corner, so that equal faces compare equal.
 */
function keepDrawable(indices: Uint32Array, n: number): Uint32Array {
  const seen = new TriangleSet(n, indices);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const a = indices[3 * i]!;
    const b = indices[3 * i + 1]!;
    const c = indices[3 * i + 2]!;
    if (a === b || b === c || a === c) continue;
    const first = a < b ? (a < c ? 0 : 2) : b < c ? 1 : 2;
    indices[k] = first === 0 ? a : first === 1 ? b : c;
    indices[k + 1] = first === 0 ? b : first === 1 ? c : a;
    indices[k + 2] = first === 0 ? c : first === 1 ? a : b;
    if (seen.add(k / 3)) k += 3;
  }
  return indices.slice(0, k);
}

/** The triangles of `indices` seen so far, by their three corners (open addressing). */
class TriangleSet {
  private readonly slots: Int32Array;
  private readonly mask: number;
  constructor(
    capacity: number,
    private readonly indices: Uint32Array,
  ) {
    let size = 1024;
    while (size < 2 * capacity) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Adds triangle t (its corners at 3t); false if an equal one is there already. */
  add(t: number): boolean {
    const ix = this.indices;
    const a = ix[3 * t]!;
    const b = ix[3 * t + 1]!;
    const c = ix[3 * t + 2]!;
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & this.mask;
    for (;;) {
      const other = this.slots[slot]!;
      if (other < 0) {
        this.slots[slot] = t;
        return true;
      }
      if (ix[3 * other] === a && ix[3 * other + 1] === b && ix[3 * other + 2] === c) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}

/** Fewer triangles, the shape kept within SIMPLIFY_ERROR; the sloppy simplifier if the careful one stalls. */
function simplify(mesh: Indexed, maxTriangles: number): Uint32Array {
  const target = 3 * maxTriangles;
  const [careful] = MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, target, SIMPLIFY_ERROR, [
    'Prune',
  ]);
  if (careful.length <= target) return careful;
  const [sloppy] = MeshoptSimplifier.simplifySloppy(careful, mesh.positions, 3, null, target, 1);
  return sloppy;
}

/**
 * Past this many triangles at one vertex (the tip of a finely divided cone) the vertex cache optimiser's time
 * grows with the square (50,000 around one vertex: 2.5 s), so such a mesh is only reordered for fetch.
 */
export const MAX_CACHE_VALENCE = 2_000;

function maxValence(mesh: Indexed): number {
  const counts = new Uint32Array(mesh.positions.length / 3);
  let max = 0;
  for (const v of mesh.indices) {
    const c = ++counts[v]!;
    if (c > max) max = c;
  }
  return max;
}

/** Reorders for the vertex cache and fetch, dropping unused vertices (reorderMesh rewrites `indices`). */
function reorder(mesh: Indexed): Indexed {
  const indices = mesh.indices.slice();
  const forCache = maxValence(mesh) <= MAX_CACHE_VALENCE;
  const [remap, unique] = MeshoptEncoder.reorderMesh(indices, forCache, false);
  const positions = new Float32Array(3 * unique);
  for (let i = 0; i < remap.length; i++) {
    const to = remap[i]!;
    if (to === 0xffffffff) continue;
    positions[3 * to] = mesh.positions[3 * i]!;
    positions[3 * to + 1] = mesh.positions[3 * i + 1]!;
    positions[3 * to + 2] = mesh.positions[3 * i + 2]!;
  }
  return { positions, indices };
}

async function writeGlb(mesh: Indexed, facts: ViewFacts): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().setExtras(viewExtras(facts));
  const buffer = doc.createBuffer();
  const vertexCount = mesh.positions.length / 3;
  const position = doc.createAccessor().setType('VEC3').setArray(mesh.positions).setBuffer(buffer);
  const indices = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(vertexCount <= 0xffff ? Uint16Array.from(mesh.indices) : mesh.indices)
    .setBuffer(buffer);
  const primitive = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices);
  const node = doc.createNode('model').setMesh(doc.createMesh('model').addPrimitive(primitive));
  doc.createScene('model').addChild(node);
  doc
    .createExtension(EXTMeshoptCompression)
    .setRequired(true)
    .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  const io = new NodeIO()
    .registerExtensions([EXTMeshoptCompression])
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder });
  return io.writeBinary(doc);
}

/** The view mesh of a model's triangles (9 numbers each, in the file's own units). */
export async function buildViewMesh(
  soup: Float32Array | Float64Array,
  maxTriangles = VIEW_MAX_TRIANGLES,
): Promise<ViewMesh> {
  return viewMeshOf(weldSoup(soup), maxTriangles);
}

/** The view mesh of an indexed mesh (weldSoup's or indexedOf's), simplified above maxTriangles. */
export async function viewMeshOf(welded: Indexed, maxTriangles = VIEW_MAX_TRIANGLES): Promise<ViewMesh> {
  await Promise.all([MeshoptEncoder.ready, MeshoptSimplifier.ready]);
  if (welded.indices.length === 0) throw new Error('The model has no triangles to show.');
  // Simplified: the simplifier ran and took triangles off (never the faces weldSoup left out).
  const indices = welded.indices.length > 3 * maxTriangles ? simplify(welded, maxTriangles) : welded.indices;
  const simplified = indices.length < welded.indices.length;
  const mesh = reorder({ ...welded, indices });
  return { glb: await writeGlb(mesh, { simplified }), triangles: mesh.indices.length / 3, simplified };
}

/**
 * A quick, rough view of a big mesh (the sloppy simplifier alone, a few tens of milliseconds for a million
 * triangles): what the viewer draws while the full view is still being made.
 */
export async function coarseViewMeshOf(
  welded: Indexed,
  triangles = COARSE_VIEW_TRIANGLES,
): Promise<ViewMesh> {
  await Promise.all([MeshoptEncoder.ready, MeshoptSimplifier.ready]);
  if (welded.indices.length === 0) throw new Error('The model has no triangles to show.');
  const [indices] = MeshoptSimplifier.simplifySloppy(
    welded.indices,
    welded.positions,
    3,
    null,
    3 * triangles,
    1,
  );
  const mesh = reorder({ ...welded, indices: indices.length > 0 ? indices : welded.indices });
  return {
    glb: await writeGlb(mesh, { simplified: true }),
    triangles: mesh.indices.length / 3,
    simplified: true,
  };
}
