import { describe, expect, it } from 'vitest';
import { box, objText, toAsciiStl, toBinaryStl, toObj, triangles } from '../../mesh/testing/generate.ts';
import { detectFormat, formatFromName, sniffFormat } from './model-format.ts';

const cube = triangles(box(20, 20, 20));
const buffer = (bytes: Uint8Array) => bytes.slice().buffer;

describe('model format', () => {
  it('goes by the file name first', () => {
    expect(formatFromName('Cube.STL')).toBe('stl');
    expect(formatFromName('part.obj')).toBe('obj');
    expect(formatFromName('part')).toBeNull();
    expect(detectFormat('part.obj', buffer(toBinaryStl(cube)))).toBe('obj');
  });

  it('sniffs binary STL, ASCII STL and OBJ', () => {
    expect(sniffFormat(buffer(toBinaryStl(cube)))).toBe('stl');
    expect(sniffFormat(buffer(toBinaryStl(cube, 'solid looks like text')))).toBe('stl');
    expect(sniffFormat(buffer(toAsciiStl(cube)))).toBe('stl');
    expect(sniffFormat(buffer(toObj(box(1, 1, 1))))).toBe('obj');
    expect(detectFormat('download', new TextEncoder().encode(objText(box(1, 1, 1))).buffer)).toBe('obj');
  });
});
