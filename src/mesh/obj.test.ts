import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import { box, objText, toObj, torus, torusVolume } from './testing/generate.ts';
import { analyzeChunked, outcome, text } from './testing/run.ts';

function result(source: string) {
  return outcome(() => analyzeMesh(text(source), 'obj'));
}

const CUBE_VERTICES = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n';
const CUBE_QUADS = 'f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';

describe('OBJ', () => {
  it('reads quads (fan-triangulated) and measures a cube exactly', () => {
    const a = analyzeMesh(text(CUBE_VERTICES + CUBE_QUADS), 'obj');
    expect(a).toMatchObject({ format: 'obj', triangles: 12, watertight: true, degenerateFaces: 0 });
    expect(a.volumeCm3).toBe(0.001);
    expect(a.areaCm2).toBe(0.06);
    expect(a.dimensions).toEqual({ x: 1, y: 1, z: 1 });
  });

  it('reads every corner form, relative indices, objects, groups and w components alike', () => {
    const mesh = torus(20, 5, 32, 16);
    const plain = analyzeMesh(toObj(mesh), 'obj');
    expect(plain.watertight).toBe(true);
    for (const options of [
      { corners: 'v/vt' as const },
      { corners: 'v//vn' as const },
      { corners: 'v/vt/vn' as const, objects: 5 },
      { negative: true },
      { negative: true, corners: 'v/vt/vn' as const },
      { w: true },
    ]) {
      const a = analyzeMesh(toObj(mesh, options), 'obj');
      expect(a.triangles).toBe(plain.triangles);
      expect(a.watertight, JSON.stringify(options)).toBe(true);
      expect(a.volumeCm3).toBeCloseTo(plain.volumeCm3, 12);
      expect(a.areaCm2).toBeCloseTo(plain.areaCm2, 12);
    }
    expect(Math.abs(plain.volumeCm3 * 1000 - torusVolume(20, 5)) / torusVolume(20, 5)).toBeLessThan(0.05);
  });

  it('reads n-gons of any size by fanning them', () => {
    const n = 1500;
    const ring: string[] = [];
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * k) / n;
      ring.push(`v ${Math.cos(t)} ${Math.sin(t)} 0`);
    }
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * k) / n;
      ring.push(`v ${Math.cos(t)} ${Math.sin(t)} 2`);
    }
    const bottom = `f ${Array.from({ length: n }, (_, k) => n - k).join(' ')}`;
    const top = `f ${Array.from({ length: n }, (_, k) => n + 1 + k).join(' ')}`;
    const sides = Array.from(
      { length: n },
      (_, k) => `f ${k + 1} ${((k + 1) % n) + 1} ${n + ((k + 1) % n) + 1} ${n + k + 1}`,
    );
    const a = analyzeMesh(text(`${ring.join('\n')}\n${bottom}\n${top}\n${sides.join('\n')}\n`), 'obj');
    expect(a.triangles).toBe(2 * (n - 2) + 2 * n);
    expect(a.watertight).toBe(true);
    expect(a.volumeCm3 * 1000).toBeCloseTo(2 * (n / 2) * Math.sin((2 * Math.PI) / n), 9);
  });

  it('skips comments, materials, smoothing groups, texture and normal lines, lines and points', () => {
    const source = `# a comment\nmtllib a.mtl\no cube\ng side\nusemtl red\ns 1\nvt 0 0\nvn 0 0 1\n${CUBE_VERTICES}l 1 2\np 3\n${CUBE_QUADS}s off\n`;
    expect(result(source)).toMatchObject({ triangles: 12, volumeCm3: 0.001, watertight: true });
  });

  it('joins lines ending in a backslash', () => {
    const source = `${CUBE_VERTICES.replace('v 1 1 1', 'v 1 \\\n1 \\\r\n 1')}f 1 4 \\\n3 2\n${CUBE_QUADS.slice(CUBE_QUADS.indexOf('\n') + 1)}`;
    expect(result(source)).toMatchObject({ triangles: 12, volumeCm3: 0.001, watertight: true });
  });

  it('reads CRLF, tabs, blank lines and a missing final newline', () => {
    const source = (CUBE_VERTICES + CUBE_QUADS).replace(/\n/g, '\r\n\r\n').replace(/ /g, ' \t ').trimEnd();
    expect(result(source)).toMatchObject({ triangles: 12, volumeCm3: 0.001 });
  });

  it('gives the same answer whatever the chunk size', () => {
    const bytes = toObj(torus(10, 3, 16, 8), { corners: 'v/vt/vn', negative: true });
    const whole = analyzeChunked(bytes, 'obj', bytes.length);
    for (const chunk of [1, 2, 3, 7, 64, 1000]) expect(analyzeChunked(bytes, 'obj', chunk)).toEqual(whole);
  });

  it('refuses face indices that name no vertex, with the line', () => {
    expect(result(`${CUBE_VERTICES}f 1 2 9\n`)).toEqual({
      error: 'obj-index-out-of-range',
      message: 'OBJ face on line 9 refers to vertex 9, but only 8 vertices are defined.',
    });
    expect(result(`${CUBE_VERTICES}\nf -9 1 2\n`)).toEqual({
      error: 'obj-index-out-of-range',
      message: 'OBJ face on line 10 refers to vertex -9, but only 8 vertices are defined.',
    });
    expect(result(`${CUBE_VERTICES}f 0 1 2\n`)).toEqual({
      error: 'obj-index-zero',
      message: 'OBJ face on line 9 refers to vertex 0, but OBJ vertices are numbered from 1.',
    });
    expect(result('f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n')).toEqual({
      error: 'obj-index-out-of-range',
      message: 'OBJ face on line 1 refers to vertex 1, but only 0 vertices are defined.',
    });
    expect(result(`${CUBE_VERTICES}f 1 2 99999999999999999999\n`)).toMatchObject({
      error: 'obj-index-out-of-range',
    });
  });

  it('refuses faces with fewer than 3 corners and malformed corners', () => {
    expect(result(`${CUBE_VERTICES}f 1 2\n`)).toEqual({
      error: 'obj-face-too-small',
      message: 'OBJ face on line 9 has only 2 vertices; a face needs at least 3.',
    });
    expect(result(`${CUBE_VERTICES}f\n`)).toMatchObject({ error: 'obj-face-too-small' });
    expect(result(`${CUBE_VERTICES}f 1 2 x\n`)).toEqual({
      error: 'obj-syntax',
      message: "OBJ face on line 9 has 'x' where a vertex index was expected.",
    });
    expect(result(`${CUBE_VERTICES}f 1/2/3/4 2 3\n`)).toMatchObject({ error: 'obj-syntax' });
  });

  it('refuses vertices with missing, non-numeric, NaN, infinite or huge coordinates', () => {
    expect(result('v 1 2\nf 1 1 1\n')).toEqual({
      error: 'obj-syntax',
      message: 'OBJ vertex on line 1 has 2 coordinates; it needs x, y and z.',
    });
    expect(result('v 1 2 # three\n')).toMatchObject({ error: 'obj-syntax' });
    expect(result('v 1 two 3\n')).toEqual({
      error: 'bad-number',
      message: "OBJ vertex on line 1 has 'two' where a number was expected.",
    });
    expect(result('\n\nv nan 0 0\n')).toEqual({
      error: 'non-finite',
      message: 'The model has coordinates that are not numbers (NaN or infinity), on line 3.',
    });
    expect(result('v 1.#IND 0 0\n')).toMatchObject({ error: 'non-finite' });
    expect(result('v 0 0 -1e39\n')).toEqual({
      error: 'out-of-range',
      message: 'The model has a coordinate too large to be real (-1e39 mm), on line 1.',
    });
  });

  it('refuses files without faces, with a word about lines and points', () => {
    expect(result('')).toMatchObject({ error: 'empty' });
    expect(result('# nothing\n')).toEqual({ error: 'no-faces', message: 'The model has no faces.' });
    expect(result(`${CUBE_VERTICES}l 1 2 3\np 4\n`)).toEqual({
      error: 'no-faces',
      message: 'The model has no faces, only lines or points: there is no surface to print.',
    });
    expect(result('v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n')).toMatchObject({ error: 'all-degenerate' });
  });

  it('survives a 10 MB line, a 10 MB comment and 64 MB-style runs of v 0 0 0 with bounded memory', () => {
    const before = process.memoryUsage().arrayBuffers;
    const longComment = `# ${'x'.repeat(10 << 20)}\n`;
    expect(analyzeMesh(text(longComment + CUBE_VERTICES + CUBE_QUADS), 'obj').triangles).toBe(12);
    const longVertex = `v 1 1 1 ${'0.5 '.repeat(2_500_000)}\n`;
    expect(analyzeMesh(text(CUBE_VERTICES + longVertex + CUBE_QUADS), 'obj').triangles).toBe(12);
    const noSpace = `#${'y'.repeat(10 << 20)}\n${CUBE_VERTICES}${CUBE_QUADS}`;
    expect(analyzeChunked(text(noSpace), 'obj', 1 << 16).triangles).toBe(12);
    const zeros = 'v 0 0 0\n'.repeat(1_000_000);
    expect(result(`${zeros}f 1 2 3\n`)).toMatchObject({ error: 'all-degenerate' });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(128 << 20);
  });

  it('refuses more than 5 million triangles (a 2-bytes-a-triangle fan), with bounded memory', () => {
    const fan = `v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1${' 2 3'.repeat(2_600_000)}\n`;
    expect(result(fan)).toEqual({
      error: 'too-many-triangles',
      message: 'The model has more than 5,000,000 triangles: please simplify it before uploading.',
    });
  });

  it('refuses an overlong word that is not a comment, chunked or not', () => {
    const source = `${CUBE_VERTICES}${'z'.repeat(5000)} 1 2\n${CUBE_QUADS}`;
    const error = {
      error: 'token-too-long',
      message: 'Line 9 has a word or number longer than 4096 characters.',
    };
    expect(result(source)).toEqual(error);
    expect(outcome(() => analyzeChunked(text(source), 'obj', 1000))).toEqual(error);
  });

  it('reads the same faces written with relative indices', () => {
    const a = analyzeMesh(text(objText(box(3, 4, 5), { negative: true })), 'obj');
    expect(a).toMatchObject({ triangles: 12, volumeCm3: 0.06, watertight: true });
  });
});
