import { Document, NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression } from '@gltf-transform/extensions';
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import { VertexWelder } from '../../mesh/vertex-welder.ts';

// The 3D viewer's copy of a model: our own parser's triangles welded into an indexed mesh, simplified
// above VIEW_MAX_TRIANGLES, reordered for the GPU's vertex cache and written as a GLB with meshopt
// compression (EXT_meshopt_compression). The browser then never parses the original file: what the server
// accepted is what the viewer draws, and a 64 MB upload becomes a download of a few megabytes.
// Positions stay float32 (no quantisation): exact sizes, and still small once meshopt-encoded.

/** The most triangles drawn: smooth in the viewer, and quick to download and decode on a phone. */
export const VIEW_MAX_TRIANGLES = 300_000;
/** The simplifier's error budget, relative to the model's size: 0.5 % keeps every visible feature. */
const SIMPLIFY_ERROR = 0.005;

export type ViewMesh = { glb: Uint8Array; triangles: number; simplified: boolean };

type Indexed = { positions: Float32Array; indices: Uint32Array };

/** Welds a triangle soup (9 numbers a triangle), leaving out triangles that collapse to a line or point. */
export function weldSoup(soup: Float32Array | Float64Array): Indexed {
  const n = Math.floor(soup.length / 9);
  const welder = new VertexWelder(Math.max(1024, n >>> 1));
  const indices = new Uint32Array(3 * n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const o = 9 * i;
    const a = welder.weld(soup[o]!, soup[o + 1]!, soup[o + 2]!);
    const b = welder.weld(soup[o + 3]!, soup[o + 4]!, soup[o + 5]!);
    const c = welder.weld(soup[o + 6]!, soup[o + 7]!, soup[o + 8]!);
    if (a === b || b === c || a === c) continue;
    indices[k++] = a;
    indices[k++] = b;
    indices[k++] = c;
  }
  return {
    positions: Float32Array.from(welder.coords.subarray(0, 3 * welder.count)),
    indices: indices.slice(0, k),
  };
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

/** Reorders for the vertex cache and fetch, dropping unused vertices (reorderMesh rewrites `indices`). */
function reorder(mesh: Indexed): Indexed {
  const indices = mesh.indices.slice();
  const [remap, unique] = MeshoptEncoder.reorderMesh(indices, true, false);
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

async function writeGlb(mesh: Indexed): Promise<Uint8Array> {
  const doc = new Document();
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
  await Promise.all([MeshoptEncoder.ready, MeshoptSimplifier.ready]);
  const welded = weldSoup(soup);
  if (welded.indices.length === 0) throw new Error('The model has no triangles to show.');
  const simplified = welded.indices.length > 3 * maxTriangles;
  const mesh = reorder(simplified ? { ...welded, indices: simplify(welded, maxTriangles) } : welded);
  return { glb: await writeGlb(mesh), triangles: mesh.indices.length / 3, simplified };
}
