import { describe, expect, it } from 'vitest';
import { box, triangles, uvSphere } from '../../mesh/testing/generate.ts';
import { buildViewMesh } from '../../server/models/view-mesh.ts';
import { parseViewMesh } from './load-model.ts';

// The viewer reads the server's view mesh as it is written (GLB, meshopt), decoded by three.js.

async function bounds(soup: ArrayLike<number>) {
  const { glb } = await buildViewMesh(Float32Array.from(soup));
  const geometry = await parseViewMesh(glb.slice().buffer);
  const { min, max } = geometry.boundingBox!;
  const count = geometry.getAttribute('position').count;
  geometry.dispose();
  const round = (v: number[]) => v.map((x) => +x.toFixed(3) + 0);
  return { min: round(min.toArray()), max: round(max.toArray()), triangles: count / 3 };
}

describe('parseViewMesh', () => {
  it('stands a Z-up part on the grid (three is Y-up), centred over the origin', async () => {
    // 30 wide (x), 20 deep (y), 10 high (z), placed away from the origin.
    expect(await bounds(triangles(box(30, 20, 10, 5, 7, 3)))).toEqual({
      min: [-15, 0, -10],
      max: [15, 10, 10],
      triangles: 12,
    });
  });

  it('reads a simplified model drawn from many triangles', async () => {
    const result = await bounds(triangles(uvSphere(10, 64, 32)));
    expect(result.triangles).toBeGreaterThan(3000);
    expect(result.max[1]).toBeCloseTo(20, 1);
  });

  it('refuses bytes that are not a view mesh', async () => {
    await expect(parseViewMesh(new TextEncoder().encode('solid nothing').buffer)).rejects.toThrow();
  });
});
