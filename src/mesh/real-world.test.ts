// Every model file in fixtures/real-world (STL tests of numpy-stl, OBJ tests of
// tinyobjloader) gets an analysis or a clear MeshError, never a crash, and the table pins which.
// Zero-volume open surfaces (a lone triangle, a floor quad) are analysed as they are: volume 0,
// not watertight; the server turns that into a warning or a refusal. A model of several open parts
// (the Cornell boxes: 4, issue-319-002: 3) counts each part as |its signed volume|, so that one part
// can never cancel another (shells.ts); one signed sum over them all gave 158793 and 0.0214066.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import { analyzeChunked, outcome } from './testing/run.ts';

const repoRoot = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
// Kept in the repository with their licences (fixtures/real-world/README.md): a fresh clone runs them all.
const fixtures = path.resolve(repoRoot, 'fixtures/real-world');

/** [file, triangles, watertight, volume in cm3 (6 significant digits)] or [file, error code]. */
const EXPECTED: Array<[string, number, boolean, number] | [string, string]> = [
  ['numpy-stl/stl_ascii/Cube.stl', 12, true, 0.008],
  ['numpy-stl/stl_ascii/HalfDonut.stl', 288, true, 0.00234315],
  ['numpy-stl/stl_ascii/Moon.stl', 116, true, 0.000888723],
  ['numpy-stl/stl_ascii/Moon_Chinese.stl', 116, true, 0.000888723],
  ['numpy-stl/stl_ascii/Star.stl', 68, true, 0.0014166],
  ['numpy-stl/stl_binary/Cube.stl', 12, true, 0.008],
  ['numpy-stl/stl_binary/CubeInvalidUnicode.stl', 12, true, 0.008],
  ['numpy-stl/stl_binary/HalfDonut.stl', 288, true, 0.00234315],
  ['numpy-stl/stl_binary/Moon.stl', 116, true, 0.000888723],
  ['numpy-stl/stl_binary/Star.stl', 68, true, 0.0014166],
  ['numpy-stl/stl_binary/StarWithEmptyHeader.stl', 68, true, 0.0014166],
  ['numpy-stl/stl_binary/rear_case.stl', 18808, true, 38.2299],
  ['numpy-stl/stl_tests/triamid.stl', 10, true, 0.00533333],
  ['tinyobjloader/catmark_torus_creases0.obj', 64, true, 0.00282842],
  ['tinyobjloader/colorspace-issue-184.obj', 1, false, 0],
  ['tinyobjloader/cornell_box.obj', 36, false, 186145],
  ['tinyobjloader/cornell_box_multimaterial.obj', 36, false, 186145],
  ['tinyobjloader/cube-vertex-w-component.obj', 12, true, 0.008],
  ['tinyobjloader/cube-vertexcol.obj', 12, true, 0.008],
  ['tinyobjloader/cube.obj', 12, true, 0.008],
  ['tinyobjloader/invalid-face-definition.obj', 'obj-face-too-small'],
  ['tinyobjloader/invalid-relative-texture-index.obj', 'obj-index-out-of-range'],
  ['tinyobjloader/invalid-relative-vertex-index.obj', 'obj-index-out-of-range'],
  ['tinyobjloader/issue-138.obj', 12, true, 0.001],
  ['tinyobjloader/issue-140-zero-face-idx.obj', 'obj-index-zero'],
  ['tinyobjloader/issue-161-inconsistent-f.obj', 12, true, 0.001],
  ['tinyobjloader/issue-162-smoothing-group.obj', 12, true, 0.001],
  ['tinyobjloader/issue-177.obj', 12, true, 0.008],
  ['tinyobjloader/issue-235-usemtl-then-o.obj', 2, false, 0.000801644],
  ['tinyobjloader/issue-244-mtl-searchpaths.obj', 2, false, 0.000801644],
  ['tinyobjloader/issue-246-usemtl-whitespace.obj', 1, false, 0],
  ['tinyobjloader/issue-248-texres-texopt.obj', 12, true, 0.008],
  ['tinyobjloader/issue-295-trianguation-failure.obj', 28, true, 0.003],
  ['tinyobjloader/issue-319-002.obj', 14, false, 0.0260373],
  ['tinyobjloader/issue-319-003.obj', 8, false, 0],
  ['tinyobjloader/issue-330.obj', 3, false, 1.12996e-7],
  ['tinyobjloader/issue-356-leading-spaces-newmtl.obj', 'no-faces'],
  ['tinyobjloader/issue-92.obj', 1, false, 0],
  ['tinyobjloader/issue-95-2.obj', 1, false, 0],
  ['tinyobjloader/issue-95.obj', 1, false, 0],
  ['tinyobjloader/leading-decimal-dot-issue-201.obj', 1, false, 0],
  ['tinyobjloader/leading-zero-in-exponent-notation-issue-210.obj', 1, false, 0],
  ['tinyobjloader/line-prim.obj', 'no-faces'],
  ['tinyobjloader/map-bump.obj', 400, false, 0.0845082],
  ['tinyobjloader/missing_material_file.obj', 36, false, 186145],
  ['tinyobjloader/mtl-filename-with-whitespace-issue46.obj', 12, true, 0.008],
  ['tinyobjloader/mtllib-multiple-files-issue-112.obj', 1, false, 0],
  ['tinyobjloader/no_material.obj', 36, false, 186145],
  ['tinyobjloader/norm-texopt.obj', 1, false, 0],
  ['tinyobjloader/pbr-mat-ext.obj', 2, false, 0],
  ['tinyobjloader/points-prim.obj', 'no-faces'],
  ['tinyobjloader/refl.obj', 12, true, 0.008],
  ['tinyobjloader/skin-weight.obj', 12, true, 0.008],
  ['tinyobjloader/smoothing-group-two-squares.obj', 3, false, 0.0021702],
  ['tinyobjloader/smoothing-normal.obj', 6, false, 0.00533333],
  ['tinyobjloader/test-nan.obj', 'non-finite'],
  ['tinyobjloader/texture-filename-with-whitespace.obj', 12, true, 0.008],
  ['tinyobjloader/texture-options-issue-85.obj', 1, false, 0],
  ['tinyobjloader/tr-and-d-issue-43.obj', 400, false, 0.0845082],
  ['tinyobjloader/usemtl-issue-104.obj', 6, false, 0],
  ['tinyobjloader/usemtl-issue-68.obj', 400, false, 0.0845082],
];

function modelFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? modelFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .filter((f) => /\.(stl|obj)$/i.test(f));
}

describe('real-world model files', () => {
  it('pins every model file in the fixtures folder', () => {
    const files = modelFiles(fixtures).map((f) => path.relative(fixtures, f).split(path.sep).join('/'));
    expect(files.sort()).toEqual(EXPECTED.map(([file]) => file).sort());
  });

  for (const row of EXPECTED) {
    const [file] = row;
    it(`${file}: ${row.length === 2 ? row[1] : `${row[1]} triangles, ${row[2] ? 'watertight' : 'open'}`}`, () => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(fixtures, file)));
      const ext = file.endsWith('.stl') ? 'stl' : 'obj';
      const result = outcome(() => analyzeMesh(bytes, ext));
      if (row.length === 2) {
        expect(result).toMatchObject({ error: row[1] });
      } else {
        expect(result).toMatchObject({ triangles: row[1], watertight: row[2] });
        if ('volumeCm3' in result) expect(Number(result.volumeCm3.toPrecision(6))).toBe(row[3]);
      }
      // Chunked reading gives the same answer.
      expect(outcome(() => analyzeChunked(bytes, ext, 97))).toEqual(result);
    });
  }

  it('explains the refused files in plain words', () => {
    const message = (file: string) => {
      const result = outcome(() =>
        analyzeMesh(new Uint8Array(fs.readFileSync(path.join(fixtures, file))), 'obj'),
      );
      return 'message' in result ? result.message : '';
    };
    expect(message('tinyobjloader/issue-140-zero-face-idx.obj')).toBe(
      'OBJ face on line 16 refers to vertex 0, but OBJ vertices are numbered from 1.',
    );
    expect(message('tinyobjloader/invalid-relative-vertex-index.obj')).toBe(
      'OBJ face on line 1 refers to vertex -4, but only 0 vertices are defined.',
    );
    expect(message('tinyobjloader/invalid-face-definition.obj')).toBe(
      'OBJ face on line 15 has only 1 vertex; a face needs at least 3.',
    );
    expect(message('tinyobjloader/test-nan.obj')).toBe(
      'The model has coordinates that are not numbers (NaN or infinity), on line 12.',
    );
    expect(message('tinyobjloader/line-prim.obj')).toBe(
      'The model has no faces, only lines or points: there is no surface to print.',
    );
  });

  it('reads the binary STL with one stray byte at its end, with a warning', () => {
    const a = analyzeMesh(
      new Uint8Array(fs.readFileSync(path.join(fixtures, 'numpy-stl/stl_binary/HalfDonut.stl'))),
      'stl',
    );
    expect(a.warnings).toEqual(['The STL file has 1 stray byte after its last triangle; it was ignored.']);
  });
});
