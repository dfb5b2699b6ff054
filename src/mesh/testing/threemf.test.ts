import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { uvSphere } from './generate.ts';
import { bambu3mf, bigSphere3mf, simple3mf } from './threemf.ts';

// The bench's big files are written piece by piece: their parts must be the fixtures' own XML.

const parts = (zip: Uint8Array) => {
  const files = unzipSync(zip);
  return Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.endsWith('.model'))
      .map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]),
  );
};

describe('bigSphere3mf', () => {
  it('writes the model parts simple3mf and bambu3mf write for uvSphere(40, ...)', () => {
    for (const [segments, rings] of [
      [8, 5],
      [700, 3],
    ] as const) {
      const mesh = uvSphere(40, segments, rings);
      expect(parts(bigSphere3mf(segments, rings, 'prusa'))).toEqual(
        parts(simple3mf({ objects: [{ id: 1, mesh }], build: [{ objectid: 1 }] })),
      );
      expect(parts(bigSphere3mf(segments, rings, 'bambu'))).toEqual(parts(bambu3mf([{ mesh }])));
    }
  });
});
