import { describe, expect, it } from 'vitest';
import { createMeshAnalyzer } from './analysis.ts';
import { Geometry } from './geometry.ts';
import { createParser } from './parse.ts';
import { box, toBinaryStl, triangles, uvSphere } from './testing/generate.ts';
import { analyzeChunked, outcome } from './testing/run.ts';
import { BATCH_TRIANGLES } from './types.ts';

const cube = triangles(box(20, 10, 5, -3, 4, 7));

function analyzerOutcome(bytes: Uint8Array, chunk = 1 << 20) {
  return outcome(() => {
    const analyzer = createMeshAnalyzer('stl-binary');
    for (let k = 0; k < bytes.length; k += chunk) analyzer.push(bytes.subarray(k, k + chunk));
    return analyzer.finish();
  });
}

describe('binary STL', () => {
  it('measures a box exactly', () => {
    const a = analyzeChunked(toBinaryStl(cube), 'stl', 1 << 20);
    expect(a.format).toBe('stl-binary');
    expect(a.triangles).toBe(12);
    expect(a.volumeCm3).toBe(1);
    expect(a.areaCm2).toBe(7);
    expect(a.dimensions).toEqual({ x: 20, y: 10, z: 5 });
    expect(a.bbox).toEqual({ min: { x: -3, y: 4, z: 7 }, max: { x: 17, y: 14, z: 12 } });
    expect(a.watertight).toBe(true);
    expect(a.warnings).toEqual([]);
  });

  it('gives the same answer whatever the chunk size (records split anywhere)', () => {
    const bytes = toBinaryStl(triangles(uvSphere(10, 24, 12)));
    const whole = analyzeChunked(bytes, 'stl', bytes.length);
    for (const chunk of [1, 7, 49, 50, 51, 83, 84, 85, 1000]) {
      expect(analyzeChunked(bytes, 'stl', chunk)).toEqual(whole);
    }
  });

  it('refuses a header promising more triangles than the file holds, allocating nothing for them', () => {
    const bytes = toBinaryStl(cube);
    new DataView(bytes.buffer).setUint32(80, 0xffffffff, true);
    const before = process.memoryUsage().arrayBuffers;
    const result = analyzerOutcome(bytes);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 << 20);
    expect(result).toEqual({
      error: 'stl-truncated',
      message: 'This STL file is truncated: its header promises 4294967295 triangles but the file holds 12.',
    });
  });

  it('refuses data after the promised triangles', () => {
    const bytes = toBinaryStl(cube);
    new DataView(bytes.buffer).setUint32(80, 10, true);
    expect(analyzerOutcome(bytes)).toEqual({
      error: 'stl-trailing-data',
      message: 'This STL file has 100 bytes of extra data after the 10 triangles its header promises.',
    });
  });

  it('reads a file with a stray byte after the last triangle, with a warning', () => {
    const bytes = new Uint8Array(toBinaryStl(cube).length + 1);
    bytes.set(toBinaryStl(cube));
    bytes[bytes.length - 1] = 10;
    const a = analyzerOutcome(bytes, 100);
    expect(a).toMatchObject({ triangles: 12, volumeCm3: 1 });
    expect('warnings' in a && a.warnings).toEqual([
      'The STL file has 1 stray byte after its last triangle; it was ignored.',
    ]);
  });

  it('refuses files shorter than the header, and a header with no triangles', () => {
    expect(analyzerOutcome(new Uint8Array(50))).toMatchObject({ error: 'stl-too-small' });
    const padded = new Uint8Array(84);
    padded.set(new TextEncoder().encode('solid padded header'));
    expect(analyzerOutcome(padded)).toEqual({ error: 'no-faces', message: 'The model has no faces.' });
  });

  it('refuses NaN, infinite and absurdly large coordinates, naming the triangle', () => {
    for (const [value, code] of [
      [Number.NaN, 'non-finite'],
      [Infinity, 'non-finite'],
      [-Infinity, 'non-finite'],
      [3e38, 'out-of-range'],
    ] as const) {
      const tris = Float64Array.from(cube);
      tris[9 * 7 + 4] = value;
      const result = analyzerOutcome(toBinaryStl(tris));
      expect(result).toMatchObject({ error: code });
      expect('message' in result && result.message).toContain('in triangle 8');
    }
    expect(
      analyzerOutcome(toBinaryStl(Float64Array.from(cube, (v, k) => (k === 0 ? Number.NaN : v)))),
    ).toEqual({
      error: 'non-finite',
      message: 'The model has coordinates that are not numbers (NaN or infinity), in triangle 1.',
    });
  });

  it('stops decoding records for a sink that is closed, while the analysis still reads and checks them all', () => {
    const sphere = triangles(uvSphere(10, 24, 12)); // 528 triangles
    const bytes = toBinaryStl(sphere);
    let handed = 0;
    const sink = {
      closed: false,
      triangles(_positions: Float64Array, _ids: Int32Array | null, n: number) {
        handed += n;
        this.closed = handed >= BATCH_TRIANGLES;
      },
    };
    const parser = createParser('stl-binary', sink, { geometry: new Geometry() });
    parser.push(bytes);
    parser.finish();
    expect(handed).toBe(BATCH_TRIANGLES); // one batch, then nothing more

    // Past a collect cap the preview's triangles are dropped, not the analysis' (nor its checks).
    const whole = analyzeChunked(bytes, 'stl', 1 << 20);
    const analyzer = createMeshAnalyzer('stl-binary', { collectTriangles: 300 });
    analyzer.push(bytes);
    expect(analyzer.finish()).toEqual(whole);
    expect(analyzer.previewTriangles()).toBeNull();
    const bad = Float64Array.from(sphere);
    bad[9 * 499 + 2] = Number.NaN;
    expect(
      outcome(() => {
        const a = createMeshAnalyzer('stl-binary', { collectTriangles: 300 });
        a.push(toBinaryStl(bad));
        return a.finish();
      }),
    ).toMatchObject({ error: 'non-finite', message: expect.stringContaining('in triangle 500') });
  });

  it('refuses a model whose faces all have zero area', () => {
    const flat = new Float64Array(9 * 5);
    for (let t = 0; t < 5; t++) flat.set([t, 0, 0, t + 1, 0, 0, t + 2, 0, 0], 9 * t);
    expect(analyzerOutcome(toBinaryStl(flat))).toEqual({
      error: 'all-degenerate',
      message: 'All 5 faces of the model have zero area: there is no surface to print.',
    });
  });
});
