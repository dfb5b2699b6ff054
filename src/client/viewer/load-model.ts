import { BufferAttribute, BufferGeometry, Mesh } from 'three';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

// The server's view mesh (GET /api/models/:id/view.glb: a GLB with meshopt compression, made from the
// shop's own parser's triangles) -> one three.js geometry, turned so the model's Z axis (up, in printing) is
// three's Y, standing on the grid (lowest point at y = 0) and centred over the origin. Flat-shaded: every
// triangle keeps its own normal, as a printed part has sharp edges.

/** Every mesh of the scene as one triangle soup, in the scene's coordinates. */
function soupOf(scene: { traverse(cb: (o: unknown) => void): void }): Float32Array {
  const parts: Float32Array[] = [];
  scene.traverse((child) => {
    if (!(child instanceof Mesh)) return;
    const source = child.geometry as BufferGeometry;
    const flat = source.index ? source.toNonIndexed() : source.clone();
    flat.applyMatrix4(child.matrixWorld);
    const position = flat.getAttribute('position');
    const out = new Float32Array(position.count * 3);
    for (let i = 0; i < position.count; i++) {
      out[3 * i] = position.getX(i);
      out[3 * i + 1] = position.getY(i);
      out[3 * i + 2] = position.getZ(i);
    }
    parts.push(out);
    flat.dispose();
    source.dispose();
  });
  const soup = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    soup.set(p, offset);
    offset += p.length;
  }
  return soup;
}

export async function parseViewMesh(bytes: ArrayBuffer): Promise<BufferGeometry> {
  const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parseAsync(bytes, '');
  gltf.scene.updateMatrixWorld(true);
  const positions = soupOf(gltf.scene);
  if (positions.length < 9) throw new Error('The model has no triangles.');
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  geometry.rotateX(-Math.PI / 2);
  geometry.computeBoundingBox();
  const box = geometry.boundingBox!;
  geometry.translate(-(box.min.x + box.max.x) / 2, -box.min.y, -(box.min.z + box.max.z) / 2);
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  geometry.computeVertexNormals();
  return geometry;
}
