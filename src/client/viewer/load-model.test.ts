import { describe, expect, it } from 'vitest';
import { box, toAsciiStl, toBinaryStl, toObj, triangles } from '../../mesh/testing/generate.ts';
import { parseModel } from './load-model.ts';

const buffer = (bytes: Uint8Array) => bytes.slice().buffer;

function bounds(name: string, bytes: Uint8Array) {
  const geometry = parseModel(buffer(bytes), name);
  const { min, max } = geometry.boundingBox!;
  geometry.dispose();
  return { min: min.toArray().map((v) => +v.toFixed(4)), max: max.toArray().map((v) => +v.toFixed(4)) };
}

describe('parseModel', () => {
  it('stands a Z-up part on the grid (three is Y-up), centred over the origin', () => {
    // 30 wide (x), 20 deep (y), 10 high (z), placed away from the origin.
    const mesh = box(30, 20, 10, 5, 7, 3);
    const expected = { min: [-15, 0, -10], max: [15, 10, 10] };
    expect(bounds('part.stl', toBinaryStl(triangles(mesh)))).toEqual(expected);
    expect(bounds('part.stl', toAsciiStl(triangles(mesh)))).toEqual(expected);
    expect(bounds('part.obj', toObj(mesh))).toEqual(expected);
    expect(bounds('part.obj', toObj(mesh, { objects: 3, corners: 'v//vn' }))).toEqual(expected);
  });

  it('refuses a file without triangles', () => {
    expect(() => parseModel(new TextEncoder().encode('# nothing here\n').buffer, 'empty.obj')).toThrow();
  });
});
