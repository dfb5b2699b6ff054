// Mutations of valid files for the property tests, and what any answer to them must look like.

import fc from 'fast-check';
import { expect } from 'vitest';
import type { MeshAnalysis } from '../types.ts';
import { concatChunks } from './generate.ts';
import { text } from './run.ts';

/** Bytes that steer the text parsers into their corners. */
const interesting = text(' \t\r\n\\#/-+.eE0123456789nNiIvVfFsSoOlLxX\0\x7f\xff');

export const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.constantFrom(...interesting) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 16 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    from: fc.nat(),
    length: fc.integer({ min: 1, max: 400 }),
  }),
);

export type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

export function mutate(source: Uint8Array, mutations: Mutation[]): Uint8Array {
  let bytes = source;
  for (const m of mutations) {
    const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
    if (m.kind === 'truncate') bytes = bytes.slice(0, at);
    else if (m.kind === 'set') {
      if (bytes.length === 0) continue;
      bytes = bytes.slice();
      bytes[at % bytes.length] = m.byte;
    } else if (m.kind === 'insert') bytes = concat(bytes.subarray(0, at), m.bytes, bytes.subarray(at));
    else if (m.kind === 'delete') bytes = concat(bytes.subarray(0, at), bytes.subarray(at + m.length));
    else {
      const from = bytes.length === 0 ? 0 : m.from % bytes.length;
      bytes = concat(bytes.subarray(0, at), bytes.subarray(from, from + m.length), bytes.subarray(at));
    }
  }
  return bytes;
}

const concat = (...parts: Uint8Array[]) => concatChunks(parts);

export function expectSane(result: MeshAnalysis | { error: string; message: string }): void {
  if ('error' in result) {
    expect(result.message.length).toBeGreaterThan(10);
    return;
  }
  expect(Number.isInteger(result.triangles) && result.triangles > 0).toBe(true);
  for (const v of [
    result.volumeCm3,
    result.areaCm2,
    result.dimensions.x,
    result.dimensions.y,
    result.dimensions.z,
    result.bbox.min.x,
    result.bbox.max.z,
  ]) {
    expect(Number.isFinite(v)).toBe(true);
  }
  expect(result.volumeCm3).toBeGreaterThanOrEqual(0);
  expect(result.areaCm2).toBeGreaterThan(0);
  expect(Math.min(result.dimensions.x, result.dimensions.y, result.dimensions.z)).toBeGreaterThanOrEqual(0);
  expect(result.degenerateFaces).toBeLessThan(result.triangles);
}
