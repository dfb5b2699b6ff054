// Property tests for 3MF: mutated archives (their bytes, packed or stored) and mutated model XML (packed
// again, so the damage reaches the XML reader) get an analysis or a MeshError, never another exception,
// and never a hang.

import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { box, torus, uvSphere } from '../testing/generate.ts';
import { expectSane, mutate, mutation } from '../testing/mutate.ts';
import { text } from '../testing/run.ts';
import { bambu3mf, modelXml, scaleMove, simple3mf } from '../testing/threemf.ts';
import type { MeshAnalysis } from '../types.ts';
import { analyse3mf, read3mf } from './read.ts';

const archives = [
  simple3mf({
    objects: [{ id: 1, mesh: box(2, 3, 4) }],
    build: [{ objectid: 1, transform: scaleMove(1, 5, 5, 0) }],
  }),
  simple3mf(
    { unit: 'inch', objects: [{ id: 3, mesh: uvSphere(1, 8, 5) }], build: [{ objectid: 3 }] },
    { level: 0 },
  ),
  bambu3mf([{ mesh: torus(4, 1, 6, 4), transform: scaleMove(1, 50, 50, 1) }, { mesh: box(1, 1, 1) }]),
];

const xmls = [
  modelXml({
    objects: [
      { id: 1, mesh: box(1, 2, 3) },
      { id: 2, components: [{ objectid: 1, transform: scaleMove(2, 1, 1, 1) }, { objectid: 1 }] },
    ],
    build: [{ objectid: 2 }, { objectid: 1, transform: '-1 0 0 0 1 0 0 0 1 0 0 0' }],
  }),
  modelXml({
    unit: 'centimeter',
    objects: [{ id: 1, mesh: uvSphere(2, 6, 4) }],
    build: [{ objectid: 1 }],
    eol: '\r\n',
  }),
];

/** Bytes that steer the XML reader into its corners. */
const xmlBytes = text('<>/="\' &;!?-[]:xmlnsvertexobjectidcomponentbuilditem0123456789.eE-+\0\xff\n');

async function outcome(bytes: Uint8Array): Promise<MeshAnalysis | { error: string; message: string }> {
  try {
    return analyse3mf(await read3mf(bytes)).analysis;
  } catch (err) {
    if (err instanceof MeshError) return { error: err.code, message: err.message };
    throw err;
  }
}

describe('3MF robustness', () => {
  it('answers mutated archives with an analysis or a MeshError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: archives.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (k, mutations) => {
          expectSane(await outcome(mutate(archives[k]!, mutations)));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('answers mutated model XML with an analysis or a MeshError', async () => {
    const xmlMutation = fc.oneof(
      mutation,
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.constantFrom(...xmlBytes) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: xmls.length - 1 }),
        fc.array(xmlMutation, { minLength: 1, maxLength: 4 }),
        async (k, mutations) => {
          const xml = mutate(text(xmls[k]!), mutations);
          expectSane(await outcome(zipSync({ '3D/3dmodel.model': xml })));
        },
      ),
      { numRuns: 600 },
    );
  });
});
