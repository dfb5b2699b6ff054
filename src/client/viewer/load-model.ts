import { BufferAttribute, BufferGeometry, Mesh } from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { detectFormat } from './model-format.ts';

// File bytes -> one three.js geometry, turned so the model's Z axis (up, in printing) is three's Y,
// standing on the grid (lowest point at y = 0) and centred over the origin.

function objGeometry(text: string): BufferGeometry {
  const group = new OBJLoader().parse(text);
  const parts: Float32Array[] = [];
  group.traverse((child) => {
    if (child instanceof Mesh) {
      const geometry = child.geometry as BufferGeometry;
      const position = geometry.getAttribute('position');
      if (position) {
        const flat = geometry.index ? geometry.toNonIndexed() : geometry;
        parts.push(Float32Array.from(flat.getAttribute('position').array as ArrayLike<number>));
        if (flat !== geometry) flat.dispose();
      }
      geometry.dispose();
    }
  });
  const length = parts.reduce((n, p) => n + p.length, 0);
  const positions = new Float32Array(length);
  let offset = 0;
  for (const p of parts) {
    positions.set(p, offset);
    offset += p.length;
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  return geometry;
}

export function parseModel(bytes: ArrayBuffer, fileName: string): BufferGeometry {
  const format = detectFormat(fileName, bytes);
  const geometry =
    format === 'stl' ? new STLLoader().parse(bytes) : objGeometry(new TextDecoder().decode(bytes));
  const position = geometry.getAttribute('position');
  if (!position || position.count < 3) {
    geometry.dispose();
    throw new Error('The model has no triangles.');
  }
  geometry.rotateX(-Math.PI / 2);
  geometry.computeBoundingBox();
  const box = geometry.boundingBox!;
  geometry.translate(-(box.min.x + box.max.x) / 2, -box.min.y, -(box.min.z + box.max.z) / 2);
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
  return geometry;
}
