import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import { asciiStlText, box, toAsciiStl, torus, triangles } from './testing/generate.ts';
import { analyzeChunked, outcome, text } from './testing/run.ts';

const cube = triangles(box(10, 10, 10));

function result(source: string) {
  return outcome(() => analyzeMesh(text(source), 'stl'));
}

describe('ASCII STL', () => {
  it('measures a box exactly', () => {
    const a = analyzeMesh(toAsciiStl(cube), 'stl');
    expect(a).toMatchObject({
      format: 'stl-ascii',
      triangles: 12,
      volumeCm3: 1,
      areaCm2: 6,
      watertight: true,
    });
  });

  it('reads keywords in any case, CRLF lines, tabs and extra blank space', () => {
    const plain = analyzeMesh(toAsciiStl(cube), 'stl');
    expect(analyzeMesh(toAsciiStl(cube, { upperCase: true, crlf: true }), 'stl')).toEqual(plain);
    const messy = asciiStlText(cube, { indent: ' \t  ' })
      .replace(/\n/g, '\r\n\r\n')
      .replace(/facet normal/g, 'FaCeT\t\tNormal')
      .replace(/ /g, '   ');
    expect(analyzeMesh(text(messy), 'stl')).toEqual(plain);
  });

  it('reads numbers written in every style', () => {
    const styles = asciiStlText(cube, { numbers: 'g' })
      .replace(/vertex 10 /g, 'vertex 1.e1 ')
      .replace(/ 0\n/g, ' -0.0e+00\n');
    expect(analyzeMesh(text(styles), 'stl')).toMatchObject({ volumeCm3: 1, triangles: 12 });
  });

  it('skips solid names of any length and any bytes, and reads several solids', () => {
    const name = `${'long name ü 𝕊 '.repeat(40)}!`;
    const one = asciiStlText(cube.subarray(0, 54), { name });
    const two = asciiStlText(cube.subarray(54), { name: '' });
    const a = analyzeMesh(text(one + two), 'stl');
    expect(a).toMatchObject({ triangles: 12, volumeCm3: 1, watertight: true });
    expect(analyzeChunked(text(one + two), 'stl', 13)).toEqual(a);
  });

  it('gives the same answer whatever the chunk size', () => {
    const bytes = toAsciiStl(triangles(torus(10, 3, 24, 12)));
    const whole = analyzeChunked(bytes, 'stl', bytes.length);
    for (const chunk of [1, 2, 3, 5, 64, 4095]) expect(analyzeChunked(bytes, 'stl', chunk)).toEqual(whole);
  });

  it('ignores normals, whatever they hold', () => {
    const odd = asciiStlText(cube).replace(/facet normal \S+ \S+ \S+/g, 'facet normal nan whatever 0');
    expect(analyzeMesh(text(odd), 'stl')).toMatchObject({ volumeCm3: 1 });
  });

  it('refuses NaN, infinity and 1e39 coordinates with the line', () => {
    const body = (v: string) =>
      `solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex ${v} 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n`;
    expect(result(body('nan'))).toEqual({
      error: 'non-finite',
      message: 'The model has coordinates that are not numbers (NaN or infinity), on line 5.',
    });
    expect(result(body('-inf'))).toMatchObject({ error: 'non-finite' });
    expect(result(body('1e39'))).toEqual({
      error: 'out-of-range',
      message: 'The model has a coordinate too large to be real (1e39 mm), on line 5.',
    });
    expect(result(body('1e400'))).toMatchObject({ error: 'out-of-range' });
    expect(result(body('0x10'))).toEqual({
      error: 'bad-number',
      message: "This STL file has '0x10' on line 5 where a number was expected.",
    });
  });

  it('explains broken structure with the line', () => {
    expect(
      result('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\n'),
    ).toEqual({
      error: 'stl-syntax',
      message: 'The facet on line 2 of this STL file has 2 vertices; a facet needs exactly 3.',
    });
    expect(
      result(
        'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nvertex 1 1 0\n',
      ),
    ).toMatchObject({
      error: 'stl-syntax',
      message: 'The facet on line 2 of this STL file has more than 3 vertices; a facet needs exactly 3.',
    });
    expect(result('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n')).toEqual({
      error: 'stl-syntax',
      message: 'This STL file ends in the middle of the facet that starts on line 2.',
    });
    expect(result('solid t\n  facet normal 0 0 1\n  banana\n')).toEqual({
      error: 'stl-syntax',
      message: "This STL file has 'banana' on line 3 where 'outer' was expected.",
    });
  });

  it('refuses a file without facets, and one whose facets are all degenerate', () => {
    expect(result('solid empty\nendsolid empty\n')).toEqual({
      error: 'no-faces',
      message: 'The model has no faces.',
    });
    expect(result('solid\n')).toMatchObject({ error: 'no-faces' });
    const flat =
      'solid f\nfacet normal 0 0 0\nouter loop\nvertex 1 1 1\nvertex 1 1 1\nvertex 2 2 2\nendloop\nendfacet\nendsolid\n';
    expect(result(flat)).toMatchObject({ error: 'all-degenerate' });
  });

  it('refuses a word longer than 4096 bytes, chunked or not', () => {
    const source = `solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 ${'1'.repeat(5000)}\n`;
    const error = {
      error: 'token-too-long',
      message: 'Line 4 has a word or number longer than 4096 characters.',
    };
    expect(result(source)).toEqual(error);
    expect(outcome(() => analyzeChunked(text(source), 'stl', 100))).toEqual(error);
  });
});
