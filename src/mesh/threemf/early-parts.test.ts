import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { box, uvSphere } from '../testing/generate.ts';
import { bambu3mf, bigSphere3mf, modelXml, package3mf, simple3mf } from '../testing/threemf.ts';
import { type EarlyParts, type GrowingFile, readEarlyParts } from './early-parts.ts';
import { analyse3mf, read3mf } from './read.ts';

// Model parts read from their local headers while a 3MF upload arrives: the whole read takes them only
// where its central directory places them, and reads to the same analysis, or the same refusal, as without.

/**
 * The file as an upload lands: a random number of bytes more at each wait (seeded). cutAt: the upload
 * breaks off there; endsAt: once that many bytes have landed, the rest lands at once and the upload has
 * ended (by default it ends when a wait asks past its last byte); step: the most that lands at a time.
 */
function arriving(
  bytes: Uint8Array,
  seed = 1,
  options: { cutAt?: number; endsAt?: number; step?: number } = {},
): GrowingFile {
  const cutAt = options.cutAt ?? bytes.length;
  const endsAt = options.endsAt ?? Number.POSITIVE_INFINITY;
  let landed = 0;
  let ended = false;
  let s = seed;
  const step = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return 1 + (s % (options.step ?? 70_000));
  };
  return {
    async waitFor(want) {
      await new Promise((resolve) => setImmediate(resolve));
      while (landed < want && landed < cutAt) landed = Math.min(cutAt, landed + step());
      if (landed >= endsAt) landed = cutAt;
      if (landed >= endsAt || landed < want) ended = true;
      return landed;
    },
    ended: () => ended,
    read(position, length) {
      if (position + length > landed)
        throw new Error(`read past what landed (${position + length} > ${landed})`);
      return bytes.slice(position, position + length);
    },
  };
}

async function outcome(bytes: Uint8Array, early?: EarlyParts) {
  try {
    const model = await read3mf(bytes, early ? { early } : {});
    return { triangles: model.triangles, analysis: analyse3mf(model).analysis };
  } catch (err) {
    if (err instanceof MeshError) return { code: err.code, message: err.message };
    throw err;
  }
}

const sphere = uvSphere(20, 64, 32);
const cube = box(20, 20, 20);

describe('3MF parts read as the upload arrives', () => {
  it('reads a one-part file (PrusaSlicer) early, and the whole read takes it: the same analysis', async () => {
    const bytes = simple3mf({ objects: [{ id: 1, mesh: sphere }], build: [{ objectid: 1 }] });
    for (const seed of [1, 2, 3]) {
      const early = await readEarlyParts(arriving(bytes, seed));
      expect([...early.keys()]).toEqual(['3d/3dmodel.model']);
      expect(await outcome(bytes, early)).toEqual(await outcome(bytes));
      expect(early.size).toBe(0); // taken
    }
  });

  it('reads every part of a Bambu Studio file (p:path), sizes in the local headers or after the data', async () => {
    const bambu = bambu3mf([{ mesh: sphere }, { mesh: cube, transform: '1 0 0 0 1 0 0 0 1 60 0 0' }]);
    const early = await readEarlyParts(arriving(bambu));
    expect(early.size).toBe(3);
    expect(await outcome(bambu, early)).toEqual(await outcome(bambu));
    expect(early.size).toBe(0);
    // Written as a stream (fflate's Zip): each part's sizes in a data descriptor after its data.
    for (const style of ['prusa', 'bambu'] as const) {
      const streamed = bigSphere3mf(40, 20, style);
      const parts = await readEarlyParts(arriving(streamed, 7));
      expect(parts.size).toBe(style === 'prusa' ? 1 : 2);
      expect(await outcome(streamed, parts)).toEqual(await outcome(streamed));
      expect(parts.size).toBe(0);
    }
  });

  it('leaves stored parts, and a part placed elsewhere by the central directory, to the whole read', async () => {
    const stored = simple3mf({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 1 }] }, { level: 0 });
    expect((await readEarlyParts(arriving(stored))).size).toBe(0);

    const bytes = simple3mf({ objects: [{ id: 1, mesh: sphere }], build: [{ objectid: 1 }] });
    const early = await readEarlyParts(arriving(bytes));
    const read = early.get('3d/3dmodel.model')!;
    read.place.localHeaderOffset += 1;
    // Had it been taken, the model would have no object: it is read again from the archive.
    read.part = { unit: 'millimeter', objects: new Map(), build: [] };
    expect(await outcome(bytes, early)).toEqual(await outcome(bytes));
    expect(early.size).toBe(0); // let go
  });

  it('once the upload has ended, begins no part and finishes only the start part', async () => {
    // PrusaSlicer's layout as these tests write it (the relationships last): the part is 3D/3dmodel.model.
    const prusa = simple3mf({ objects: [{ id: 1, mesh: uvSphere(20, 256, 128) }], build: [{ objectid: 1 }] });
    const start = await readEarlyParts(arriving(prusa, 3, { endsAt: prusa.length >> 1 }));
    expect([...start.keys()]).toEqual(['3d/3dmodel.model']);
    expect(await outcome(prusa, start)).toEqual(await outcome(prusa));
    expect(start.size).toBe(0);
    // Bambu Studio's (the start part first, then the objects): the object in progress at the end is dropped.
    const bambu = bambu3mf([{ mesh: sphere }, { mesh: cube }]);
    // Inside the first object's part: just past its local header.
    const rootEnd = Buffer.from(bambu).indexOf('3D/Objects/object_1.model') + 200;
    const dropped = await readEarlyParts(arriving(bambu, 5, { endsAt: rootEnd, step: 1000 }));
    expect([...dropped.keys()]).toEqual(['3d/3dmodel.model']);
    expect(await outcome(bambu, dropped)).toEqual(await outcome(bambu));
    // A part named as the usual start part, but not the one the relationships name: dropped.
    const decoy = package3mf(modelXml({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 1 }] }), {
      startPart: '3D/start.model',
      parts: {
        '3D/3dmodel.model': modelXml({ objects: [{ id: 1, mesh: uvSphere(20, 256, 128) }], build: [] }),
      },
    });
    const decoyAt = Buffer.from(decoy).indexOf('3D/3dmodel.model') + 200; // inside its data
    const skipped = await readEarlyParts(arriving(decoy, 4, { endsAt: decoyAt, step: 1000 }));
    expect([...skipped.keys()]).toEqual(['3d/start.model']);
    expect(await outcome(decoy, skipped)).toEqual(await outcome(decoy));
    // Written as a stream, the relationships first, the object before the start part: nothing is finished.
    const streamed = bigSphere3mf(40, 20, 'bambu');
    const none = await readEarlyParts(arriving(streamed, 9, { endsAt: streamed.length >> 2 }));
    expect(none.size).toBe(0);
  });

  it('stops at a part that breaks off, is not well-formed, or packs like a ZIP bomb; the whole read refuses it as ever', async () => {
    const bytes = simple3mf({ objects: [{ id: 1, mesh: sphere }], build: [{ objectid: 1 }] });
    // The upload ends halfway through the part: nothing is read early, and nothing hangs.
    expect((await readEarlyParts(arriving(bytes, 1, { cutAt: bytes.length >> 1 }))).size).toBe(0);

    const broken = package3mf(
      modelXml({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 1 }] }).replace('</model>', ''),
    );
    const none = await readEarlyParts(arriving(broken));
    expect(none.size).toBe(0);
    expect(await outcome(broken, none)).toEqual(await outcome(broken));
    expect(await outcome(broken)).toMatchObject({ code: '3mf-xml' });

    const xml = modelXml({ objects: [{ id: 1, mesh: cube }], build: [{ objectid: 1 }] });
    const bomb = package3mf(xml.replace('<resources>', `<resources>${' '.repeat(4 * 1024 * 1024)}`));
    const stopped = await readEarlyParts(arriving(bomb));
    expect(stopped.size).toBe(0);
    expect(await outcome(bomb, stopped)).toEqual(await outcome(bomb));
    expect(await outcome(bomb)).toMatchObject({ code: '3mf-too-big' });
  });

  it('stops at once when the upload is given up, with the error that says so', async () => {
    const bytes = simple3mf({ objects: [{ id: 1, mesh: uvSphere(20, 256, 128) }], build: [{ objectid: 1 }] });
    const file = arriving(bytes);
    let reads = 0;
    const givenUp = new Error('given up');
    const result = readEarlyParts({
      ...file,
      read(position, length) {
        reads++;
        return file.read(position, length);
      },
      // Given up while the model part streams in: every look from then on says so.
      ended: () => {
        if (reads > 3) throw givenUp;
        return file.ended();
      },
    });
    await expect(result).rejects.toBe(givenUp);
    expect(reads).toBeLessThan(6);
  });

  it('never reads a byte before it has landed, whatever the steps', async () => {
    const bambu = bambu3mf([{ mesh: sphere }, { mesh: cube }]);
    // arriving() throws on a read past what landed: every seed reads all three parts.
    for (let seed = 10; seed < 20; seed++) expect((await readEarlyParts(arriving(bambu, seed))).size).toBe(3);
  });
});
