// The byte path from the archive on: its WebAssembly engine takes the children exporters write, its UTF-8
// check refuses what the decoder refuses, and read3mf reads every file the same by bytes as by text and by
// saxes alone, big ones (many chunks) and broken ones included. fast-lane.test.ts compares the ways on the
// model XML itself, cut anywhere.

import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { box, torus, uvSphere } from '../testing/generate.ts';
import { mutate, mutation } from '../testing/mutate.ts';
import { text } from '../testing/run.ts';
import { bambu3mf, modelXml, scaleMove, simple3mf } from '../testing/threemf.ts';
import { ModelXmlEngine } from '../wasm/text-engine.ts';
import { type PartReading, read3mf } from './read.ts';
import { Utf8Check } from './utf8.ts';

const bits = (values: ArrayLike<number>) => Array.from(new Uint32Array(Float64Array.from(values).buffer));

describe('the byte path engine', () => {
  it('reads the vertices exporters write, to the bits of Number(text) times the unit', () => {
    const forms = [
      (x: number) => x.toFixed(6),
      (x: number) => x.toFixed(3),
      (x: number) => x.toPrecision(9),
      (x: number) => String(Math.fround(x)),
      (x: number) => x.toPrecision(17),
      (x: number) => String(x),
      (x: number) => x.toExponential(8),
    ];
    const engine = new ModelXmlEngine();
    fc.assert(
      fc.property(
        // Coordinates under a nanometre, written with exponents past 22, are the text lane's.
        fc.array(
          fc.double({ min: -2000, max: 2000, noNaN: true }).map((x) => (Math.abs(x) < 1e-6 ? 0 : x)),
          { minLength: 3, maxLength: 300 },
        ),
        fc.constantFrom(...forms),
        fc.constantFrom(1, 0.001, 25.4, 304.8),
        (values, form, unit) => {
          const strings = values.slice(0, values.length - (values.length % 3)).map(form);
          let xml = '';
          for (let k = 0; k < strings.length; k += 3) {
            xml += `\n     <vertex x="${strings[k]}" y="${strings[k + 1]}" z="${strings[k + 2]}"/>`;
          }
          const bytes = text(`${xml}\n    </vertices>`);
          engine.load(bytes, 0, bytes.length);
          const count = engine.readVertices(0, bytes.length, unit);
          expect(count).toBe(strings.length / 3);
          expect(bytes[engine.end]).toBe(0x3c);
          expect(bits(engine.vertices.subarray(0, strings.length))).toEqual(
            bits(strings.map((s) => Number(s) * unit)),
          );
        },
      ),
      { numRuns: 300 },
    );
    engine.release();
  });

  it('reads triangles with their material properties, and stops at the first child it leaves', () => {
    const engine = new ModelXmlEngine();
    const children = [
      '<triangle v1="0" v2="1" v3="2"/>',
      '\r\n\t<triangle v3="5" v1="3" v2="123456789" pid="1" p1="0" p2="1" p3="2" />',
      ' <triangle\nv1="7"\tv2="8" v3="9"/>',
      '<triangle v1="0" v2="1" v3="1234567890"/>',
      '<triangle v1="0" v2="1" v3="2"/>',
    ];
    const bytes = text(children.join(''));
    engine.load(bytes, 0, bytes.length);
    expect(engine.readTriangles(0, bytes.length)).toBe(3);
    expect(Array.from(engine.triangles.subarray(0, 9))).toEqual([0, 1, 2, 3, 123456789, 5, 7, 8, 9]);
    // The reader checks the indices against the vertex count by the largest.
    expect(engine.largest).toBe(123456789);
    expect(engine.end).toBe(children.slice(0, 3).join('').length);
    // A child not whole before the end is not read.
    engine.load(bytes, 0, children[0]!.length - 1);
    expect(engine.readTriangles(0, children[0]!.length - 1)).toBe(0);
    engine.release();
  });

  // The usual layouts are read by word compares, anything near them by the attribute loop: both the same.
  it.each([
    ['the usual layout', '<triangle v1="0" v2="1" v3="2"/>', [0, 1, 2]],
    [
      'seven-digit indices',
      '<triangle v1="1234567" v2="7654321" v3="1000000"/>',
      [1234567, 7654321, 1000000],
    ],
    ['eight and nine digits', '<triangle v1="12345678" v2="123456789" v3="3"/>', [12345678, 123456789, 3]],
    ['leading zeros', '<triangle v1="00000001" v2="007" v3="0"/>', [1, 7, 0]],
    ['a space before the end', '<triangle v1="4" v2="5" v3="6" />', [4, 5, 6]],
    ['two spaces', '<triangle v1="4"  v2="5" v3="6"/>', [4, 5, 6]],
    ['another order', '<triangle v2="5" v1="4" v3="6"/>', [4, 5, 6]],
    ['a material', '<triangle v1="4" v2="5" v3="6" pid="2"/>', [4, 5, 6]],
    ['an empty index', '<triangle v1="" v2="5" v3="6"/>', null],
    ['a sign', '<triangle v1="-4" v2="5" v3="6"/>', null],
    ['a letter', '<triangle v1="4a" v2="5" v3="6"/>', null],
    ['ten digits', '<triangle v1="4" v2="5" v3="1234567890"/>', null],
    ['a closing tag', '<triangle v1="4" v2="5" v3="6"></triangle>', null],
    ['no end', '<triangle v1="4" v2="5" v3="6"', null],
  ])('reads a triangle with %s as the attribute loop does, or leaves it', (_what, child, indices) => {
    const engine = new ModelXmlEngine();
    const bytes = text(`${child}\n<other/>`);
    engine.load(bytes, 0, bytes.length);
    expect(engine.readTriangles(0, bytes.length)).toBe(indices ? 1 : 0);
    if (indices) expect(Array.from(engine.triangles.subarray(0, 3))).toEqual(indices);
    expect(engine.largest).toBe(indices ? Math.max(...indices) : 0);
    expect(engine.end).toBe(indices ? child.length + 1 : 0);
    engine.release();
  });

  it.each([
    ['the usual layout', '<vertex x="1.5" y="-2" z="3e-2"/>', [1.5, -2, 0.03]],
    ['a space before the end', '<vertex x="1.5" y="-2" z="3"  />', [1.5, -2, 3]],
    ['another order', '<vertex z="3" x="1.5" y="-2"/>', [1.5, -2, 3]],
    ['a tab', '<vertex x="1.5"\ty="-2" z="3"/>', [1.5, -2, 3]],
  ])('reads a vertex with %s as the attribute loop does', (_what, child, xyz) => {
    const engine = new ModelXmlEngine();
    const bytes = text(`${child}\n<other/>`);
    engine.load(bytes, 0, bytes.length);
    expect(engine.readVertices(0, bytes.length, 1)).toBe(1);
    expect(Array.from(engine.vertices.subarray(0, 3))).toEqual(xyz);
    expect(engine.end).toBe(child.length + 1);
    engine.release();
  });

  it.each([
    ['a sign', '<vertex x="+1" y="2" z="3"/>'],
    ['spaces in a value', '<vertex x=" 1" y="2" z="3"/>'],
    ['single quotes', "<vertex x='1' y='2' z='3'/>"],
    ['an entity', '<vertex x="&#49;" y="2" z="3"/>'],
    ['another attribute', '<vertex x="1" y="2" z="3" w="4"/>'],
    ['an attribute twice', '<vertex x="1" x="1" y="2" z="3"/>'],
    ['no space before an attribute', '<vertex x="1"y="2" z="3"/>'],
    ['an attribute missing', '<vertex x="1" y="2"/>'],
    ['a closing tag', '<vertex x="1" y="2" z="3"></vertex>'],
    ['a prefix', '<c:vertex x="1" y="2" z="3"/>'],
    ['a number too long for it', `<vertex x="1.${'1'.repeat(20)}" y="2" z="3"/>`],
    ['a coordinate too large', '<vertex x="1e300" y="2" z="3"/>'],
  ])('leaves a vertex with %s', (_what, child) => {
    const engine = new ModelXmlEngine();
    const bytes = text(`<vertex x="1" y="2" z="3"/>${child}`);
    engine.load(bytes, 0, bytes.length);
    expect(engine.readVertices(0, bytes.length, 1)).toBe(1);
    expect(engine.end).toBe(27);
    engine.release();
  });
});

describe('the UTF-8 check', () => {
  /** Bytes near and far from UTF-8: ASCII, whole characters of every length, and stray bytes. */
  const piece = fc.oneof(
    fc.constantFrom(...['a', '<', 'é', '€', '立', '🧊', '\u{10ffff}', '\ud7ff', '\ue000'].map(text)),
    fc.uint8Array({ minLength: 1, maxLength: 3 }),
    fc.constantFrom(
      ...[[0xe0, 0xa0], [0xe0, 0x80], [0xed, 0xa0], [0xf0, 0x90], [0xf4, 0x90], [0xc0], [0xf5], [0x80]].map(
        (b) => Uint8Array.from(b),
      ),
    ),
  );

  it('refuses a chunk where a streaming TextDecoder throws, and an unfinished character at the end', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 20 }),
        fc.array(fc.nat(60), { maxLength: 6 }),
        (pieces, cuts) => {
          const bytes = Uint8Array.from(pieces.flatMap((p) => Array.from(p)));
          const check = new Utf8Check();
          const decoder = new TextDecoder('utf-8', { fatal: true });
          let from = 0;
          for (const cut of [...cuts.sort((a, b) => a - b), bytes.length]) {
            const chunk = bytes.subarray(from, Math.max(from, Math.min(cut, bytes.length)));
            from += chunk.length;
            let decodes = true;
            try {
              decoder.decode(chunk, { stream: true });
            } catch {
              decodes = false;
            }
            expect(check.push(chunk)).toBe(decodes);
            if (!decodes) return;
          }
          let ends = true;
          try {
            decoder.decode();
          } catch {
            ends = false;
          }
          expect(check.end()).toBe(ends);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

type Outcome = unknown;

/** What read3mf makes of bytes one way: every placed mesh (bits), or the refusal. */
async function readOneWay(bytes: Uint8Array, reading: PartReading): Promise<Outcome> {
  try {
    const model = await read3mf(bytes, { reading });
    return {
      unit: model.unit,
      triangles: model.triangles,
      instances: model.instances.map((i) => ({
        vertices: bits(i.mesh.vertices),
        triangles: Array.from(i.mesh.triangles),
        transform: Array.from(i.transform),
      })),
    };
  } catch (err) {
    if (!(err instanceof MeshError)) throw err;
    // saxes names positions in the text it was given, which differ between the ways.
    if (err.code === '3mf-xml' && !/not UTF-8/.test(err.message)) return { error: err.code };
    return { error: err.code, message: err.message };
  }
}

async function expectSameEveryWay(bytes: Uint8Array): Promise<Outcome> {
  const reference = await readOneWay(bytes, 'saxes');
  expect(await readOneWay(bytes, 'text')).toEqual(reference);
  expect(await readOneWay(bytes, 'bytes')).toEqual(reference);
  return reference;
}

/** The archive with the size its directory declares for the part name changed to size. */
function withDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const wanted = new TextDecoder().decode(text(name));
  const nameAt = (at: number, length: number) => new TextDecoder().decode(out.subarray(at, at + length));
  for (let i = 0; i + 46 <= out.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50 && nameAt(i + 30, view.getUint16(i + 26, true)) === wanted) {
      view.setUint32(i + 22, size, true);
    } else if (signature === 0x02014b50 && nameAt(i + 46, view.getUint16(i + 28, true)) === wanted) {
      view.setUint32(i + 24, size, true);
    }
  }
  return out;
}

describe('read3mf by bytes', () => {
  it('reads big files (many chunks), packed and stored, as it reads them by text and by saxes', async () => {
    const sphere = uvSphere(30, 160, 120);
    const files = [
      simple3mf({
        objects: [{ id: 1, mesh: sphere }],
        build: [{ objectid: 1, transform: scaleMove(2, 1, 2, 3) }],
      }),
      simple3mf({ unit: 'inch', objects: [{ id: 4, mesh: sphere }], build: [{ objectid: 4 }] }, { level: 0 }),
      bambu3mf(
        [{ mesh: sphere, transform: scaleMove(1, 50, 50, 1) }, { mesh: torus(20, 5, 200, 60) }],
        'micron',
      ),
    ];
    for (const file of files) {
      const outcome = await expectSameEveryWay(file);
      expect(outcome).toMatchObject({ triangles: expect.any(Number) });
    }
  }, 60_000);

  it('reads mutated model XML (UTF-8 or not) as it reads it by text and by saxes', async () => {
    const xml = text(
      modelXml({
        unit: 'centimeter',
        objects: [
          { id: 1, mesh: box(1, 2, 3), name: 'Würfel 🧊' },
          { id: 2, components: [{ objectid: 1, transform: scaleMove(2, 1, 1, 1) }] },
        ],
        build: [{ objectid: 2 }, { objectid: 1 }],
        eol: '\r\n',
      }),
    );
    const xmlMutation = fc.oneof(
      mutation,
      fc.record({
        kind: fc.constant('set' as const),
        at: fc.nat(),
        byte: fc.constantFrom(...text('<>/="\' &#;!-xyz0123456789.eE-+\n'), 0x80, 0xc3, 0xe2, 0xf0, 0xff),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(xmlMutation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (mutations, stored) => {
          const file = zipSync({ '3D/3dmodel.model': mutate(xml, mutations) }, { level: stored ? 0 : 6 });
          await expectSameEveryWay(file);
        },
      ),
      { numRuns: 400 },
    );
  }, 60_000);

  it('refuses a part that inflates to more or less than its directory declares, as yauzl does', async () => {
    const xml = modelXml({ objects: [{ id: 1, mesh: uvSphere(10, 40, 30) }], build: [{ objectid: 1 }] });
    const file = zipSync({ '3D/3dmodel.model': text(xml) });
    const size = text(xml).length;
    for (const declared of [size - 1, size + 1, Math.floor(size / 2)]) {
      expect(await expectSameEveryWay(withDeclaredSize(file, '3D/3dmodel.model', declared))).toEqual({
        error: '3mf-archive',
        message: 'This 3MF file is damaged: its ZIP archive cannot be read.',
      });
    }
  });
});
