// Property tests: whatever bytes arrive, the analyzer answers with finite numbers or a MeshError,
// never another exception and never a hang; and how the file is cut into chunks changes nothing.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import {
  box,
  objText,
  toAsciiStl,
  toBinaryStl,
  toObj,
  torus,
  triangles,
  uvSphere,
  withoutFace,
} from './testing/generate.ts';
import { expectSane, mutate, mutation } from './testing/mutate.ts';
import { analyzeSplit, outcome, text } from './testing/run.ts';
import type { MeshExtension } from './types.ts';

const sphere = uvSphere(5, 8, 5);
const seeds: Array<[Uint8Array, MeshExtension]> = [
  [toBinaryStl(triangles(box(2, 3, 4))), 'stl'],
  [toBinaryStl(triangles(sphere), 'solid header that is binary'), 'stl'],
  [toAsciiStl(triangles(box(2, 3, 4))), 'stl'],
  [toAsciiStl(triangles(withoutFace(sphere, 3)), { crlf: true, upperCase: true, numbers: 'g' }), 'stl'],
  [toObj(torus(4, 1, 6, 4)), 'obj'],
  [toObj(sphere, { negative: true, corners: 'v/vt/vn', objects: 3 }), 'obj'],
  [
    text(`# c\\\n${objText(box(1, 2, 3), { corners: 'v//vn', w: true }).replace(/\n/g, '\r\n')}l 1 2\n`),
    'obj',
  ],
];

const seed = fc.integer({ min: 0, max: seeds.length - 1 });

describe('robustness', () => {
  it('answers random bytes with an analysis or a MeshError', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.constantFrom<MeshExtension>('stl', 'obj'),
        (bytes, ext) => {
          expectSane(outcome(() => analyzeMesh(bytes, ext)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers random text in the formats words with an analysis or a MeshError', () => {
    const words = [
      'v',
      'f',
      'vt',
      '#',
      'solid',
      'facet',
      'normal',
      'outer',
      'loop',
      'vertex',
      'endloop',
      'endfacet',
      'endsolid',
      '1',
      '-2',
      '0.5',
      '1e3',
      '/',
      '//',
      '\\',
      '\n',
      '\r\n',
      ' ',
      '\t',
      'nan',
      '-1',
      '3/1/2',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { maxLength: 400 }),
        fc.constantFrom<MeshExtension>('stl', 'obj'),
        (parts, ext) => {
          const bytes = text((ext === 'stl' ? 'solid x\n' : '') + parts.join(' '));
          expectSane(outcome(() => analyzeMesh(bytes, ext)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers mutated models (truncated, flipped, spliced) with an analysis or a MeshError', () => {
    fc.assert(
      fc.property(seed, fc.array(mutation, { minLength: 1, maxLength: 4 }), (k, mutations) => {
        const [source, ext] = seeds[k]!;
        expectSane(outcome(() => analyzeMesh(mutate(source, mutations), ext)));
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the identical answer, or the identical error, however the file is cut into chunks', () => {
    fc.assert(
      fc.property(
        seed,
        fc.array(mutation, { maxLength: 2 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (k, mutations, rawCuts) => {
          const [source, ext] = seeds[k]!;
          const bytes = mutate(source, mutations);
          const cuts = rawCuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)).sort((a, b) => a - b);
          const whole = outcome(() => analyzeSplit(bytes, ext, []));
          expect(outcome(() => analyzeSplit(bytes, ext, cuts))).toEqual(whole);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('cuts every valid seed at every single byte the same way', () => {
    for (const [source, ext] of seeds) {
      const whole = analyzeSplit(source, ext, []);
      for (let cut = 1; cut < source.length; cut += Math.max(1, Math.floor(source.length / 300))) {
        expect(analyzeSplit(source, ext, [cut])).toEqual(whole);
      }
    }
  });
});
