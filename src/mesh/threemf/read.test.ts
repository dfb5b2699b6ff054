import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from '../analysis.ts';
import { MeshError } from '../errors.ts';
import { box, merged, toBinaryStl, translated, triangles, uvSphere } from '../testing/generate.ts';
import {
  bambu3mf,
  CORE,
  modelXml,
  PRODUCTION,
  package3mf,
  relsXml,
  scaleMove,
  simple3mf,
} from '../testing/threemf.ts';
import { analyse3mf, read3mf } from './read.ts';

// 3MF files laid out as PrusaSlicer, Cura and Bambu Studio write them (src/mesh/testing/threemf.ts), read
// to the same analysis as STL and OBJ; and every way a 3MF file can be bad, each with its own message.

async function analyse(bytes: Uint8Array) {
  return analyse3mf(await read3mf(bytes)).analysis;
}

async function refusal(bytes: Uint8Array): Promise<MeshError> {
  try {
    await read3mf(bytes).then((m) => analyse3mf(m));
  } catch (err) {
    if (err instanceof MeshError) return err;
    throw err;
  }
  throw new Error('the file was accepted');
}

const cube20 = box(20, 20, 20);

describe('3MF models', () => {
  it('reads a one-part file (PrusaSlicer, Cura) with the build transform applied', async () => {
    const a = await analyse(
      simple3mf({
        objects: [{ id: 1, mesh: cube20 }],
        build: [{ objectid: 1, transform: scaleMove(1, 118, 118, 0) }],
      }),
    );
    expect(a).toMatchObject({
      format: '3mf',
      triangles: 12,
      watertight: true,
      dimensions: { x: 20, y: 20, z: 20 },
      bbox: { min: { x: 118, y: 118, z: 0 }, max: { x: 138, y: 138, z: 20 } },
      warnings: [],
    });
    expect(a.volumeCm3).toBeCloseTo(8, 9);
    expect(a.areaCm2).toBeCloseTo(24, 9);
  });

  it('gives the analysis the same triangles give as a binary STL', async () => {
    const sphere = uvSphere(12.5, 48, 24);
    const fromStl = analyzeMesh(toBinaryStl(triangles(sphere)), 'stl');
    const from3mf = await analyse(
      simple3mf({ objects: [{ id: 1, mesh: sphere }], build: [{ objectid: 1 }] }),
    );
    expect(from3mf.triangles).toBe(fromStl.triangles);
    expect(from3mf.watertight).toBe(true);
    // The STL holds float32 coordinates, the 3MF the decimals as written.
    expect(from3mf.volumeCm3).toBeCloseTo(fromStl.volumeCm3, 4);
    expect(from3mf.areaCm2).toBeCloseTo(fromStl.areaCm2, 4);
  });

  it('reads objects kept in other parts through p:path, as Bambu Studio writes them', async () => {
    const a = await analyse(
      bambu3mf([
        { mesh: cube20, transform: scaleMove(1, 100, 100, 0) },
        { mesh: box(10, 10, 10), transform: scaleMove(1, 150, 100, 0), componentTransform: scaleMove(2) },
      ]),
    );
    expect(a.triangles).toBe(24);
    // 20^3 + (10 x 2)^3 mm3.
    expect(a.volumeCm3).toBeCloseTo(16, 9);
    expect(a.bbox).toEqual({ min: { x: 100, y: 100, z: 0 }, max: { x: 170, y: 120, z: 20 } });
    expect(a.watertight).toBe(true);
  });

  it('places components inside components, each transform after the one below it', async () => {
    const xml = modelXml({
      objects: [
        { id: 1, mesh: box(1, 1, 1) },
        // Two unit cubes, the second moved 5 mm along x, the pair scaled 10x and then moved up 3 mm.
        { id: 2, components: [{ objectid: 1 }, { objectid: 1, transform: scaleMove(1, 5, 0, 0) }] },
        { id: 3, components: [{ objectid: 2, transform: scaleMove(10, 0, 0, 3) }] },
      ],
      build: [{ objectid: 3 }],
    });
    const a = await analyse(package3mf(xml));
    expect(a.triangles).toBe(24);
    expect(a.volumeCm3).toBeCloseTo(2, 9);
    expect(a.bbox).toEqual({ min: { x: 0, y: 0, z: 3 }, max: { x: 60, y: 10, z: 13 } });
  });

  it('keeps a mirrored copy solid: its winding is turned back, so the volumes add up', async () => {
    const a = await analyse(
      simple3mf({
        objects: [{ id: 1, mesh: cube20 }],
        build: [{ objectid: 1 }, { objectid: 1, transform: '-1 0 0 0 1 0 0 0 1 -30 0 0' }],
      }),
    );
    expect(a.volumeCm3).toBeCloseTo(16, 9);
    expect(a.watertight).toBe(true);
    expect(a.bbox.min.x).toBe(-50);
  });

  it.each([
    ['micron', 0.001, 'microns'],
    ['millimeter', 1, null],
    ['centimeter', 10, 'centimetres'],
    ['inch', 25.4, 'inches'],
    ['foot', 304.8, 'feet'],
    ['meter', 1000, 'metres'],
  ])('honours unit="%s"', async (unit, mm, name) => {
    const a = await analyse(
      simple3mf({
        unit,
        objects: [{ id: 1, mesh: box(2, 2, 2) }],
        build: [{ objectid: 1, transform: scaleMove(1, 1, 0, 0) }],
      }),
    );
    expect(a.dimensions.x).toBeCloseTo(2 * mm, 9);
    // The translation is in the file's unit too.
    expect(a.bbox.min.x).toBeCloseTo(mm, 9);
    expect(a.volumeCm3).toBeCloseTo((8 * mm ** 3) / 1000, 9);
    expect(a.warnings).toEqual(
      name ? [`This 3MF file is drawn in ${name}: its sizes were converted to millimetres.`] : [],
    );
  });

  it('converts parts drawn in another unit than the start part', async () => {
    const part = modelXml({ unit: 'inch', objects: [{ id: 1, mesh: box(1, 1, 1) }], build: [] });
    const root = modelXml({
      objects: [{ id: 2, components: [{ objectid: 1, path: '/3D/Objects/inch.model' }] }],
      build: [{ objectid: 2 }],
    });
    const a = await analyse(package3mf(root, { parts: { '3D/Objects/inch.model': part } }));
    expect(a.dimensions.x).toBeCloseTo(25.4, 9);
  });

  it('reads stored (uncompressed) archives, CRLF line ends, and a start part named by _rels/.rels', async () => {
    const xml = modelXml({
      objects: [{ id: 7, mesh: merged(cube20, translated(cube20, 40, 0, 0)) }],
      build: [{ objectid: 7 }],
      eol: '\r\n',
    });
    const a = await analyse(package3mf(xml, { level: 0, startPart: '3D/Model Part.model' }));
    expect(a.volumeCm3).toBeCloseTo(16, 9);
    // Without relationships, the usual name.
    expect((await analyse(package3mf(xml, { noRels: true }))).triangles).toBe(24);
  });

  it('resolves namespaces by their URI, whatever the prefixes', async () => {
    const part = modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [] });
    const root = `<?xml version="1.0"?>
<c:model xmlns:c="${CORE}" xmlns:prod="${PRODUCTION}" unit="millimeter">
 <c:resources>
  <c:object id="2" type="model"><c:components><c:component objectid="1" prod:path="/3D/Objects/a.model"/></c:components></c:object>
  <x:object xmlns:x="http://example.com/not-3mf" id="3"><c:mesh/></x:object>
 </c:resources>
 <c:build><c:item objectid="2" transform="${scaleMove(1, 5, 0, 0)}"/></c:build>
</c:model>`;
    const a = await analyse(package3mf(root, { parts: { '3D/Objects/a.model': part } }));
    expect(a.volumeCm3).toBeCloseTo(8, 9);
    expect(a.bbox.min.x).toBe(5);
  });

  it('skips what it does not use: metadata, materials, thumbnails, attributes of other extensions', async () => {
    const xml = modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] })
      .replace(
        '<resources>',
        '<resources>\n  <basematerials id="9"><base name="PLA" displaycolor="#FF0000"/></basematerials>',
      )
      .replace(
        '<object id="1" type="model">',
        '<object id="1" type="model" pid="9" pindex="0" p:UUID="00000000-0000-0000-0000-000000000001">',
      );
    expect((await analyse(package3mf(xml))).volumeCm3).toBeCloseTo(8, 9);
  });
});

/** Sets bits in every local and central header of a ZIP (flags at +6/+8, method at +8/+10). */
function patchHeaders(
  zip: Uint8Array,
  patch: (view: DataView, flags: number, method: number) => void,
): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let k = 0; k + 4 <= out.length; k++) {
    const sig = view.getUint32(k, true);
    if (sig === 0x04034b50) patch(view, k + 6, k + 8);
    else if (sig === 0x02014b50) patch(view, k + 8, k + 10);
  }
  return out;
}

const good = () => simple3mf({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] });

function withModel(xml: string) {
  return package3mf(xml);
}

describe('3MF refusals', () => {
  it.each<[string, () => Uint8Array, string, RegExp]>([
    ['an empty file', () => new Uint8Array(0), 'empty', /^The file is empty\.$/],
    [
      'a PNG renamed .3mf',
      () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
      'not-a-model',
      /is not a 3MF file \(a 3MF file is a ZIP archive\)/,
    ],
    [
      'a cut-off archive',
      () => good().subarray(0, 300),
      '3mf-archive',
      /^This 3MF file is damaged: its ZIP archive cannot be read\.$/,
    ],
    [
      'an encrypted archive',
      () => patchHeaders(good(), (v, flags) => v.setUint16(flags, v.getUint16(flags, true) | 1, true)),
      '3mf-archive',
      /is encrypted: please export it again without a password/,
    ],
    [
      'an unknown compression method',
      () =>
        patchHeaders(
          good(),
          (v, _flags, method) => v.getUint16(method, true) === 8 && v.setUint16(method, 12, true),
        ),
      '3mf-archive',
      /compression method we cannot read/,
    ],
    [
      'a ZIP bomb (a part that packs 1000 to 1)',
      () =>
        withModel(
          modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
            '<resources>',
            `<resources>${' '.repeat(20 << 20)}`,
          ),
        ),
      '3mf-too-big',
      /unpacks to \d+ times its packed size: it looks like a ZIP bomb/,
    ],
    [
      'no model part',
      () => zipOnly({ 'readme.txt': 'hi' }),
      '3mf-model',
      /^This 3MF file has no 3D model: its part '3D\/3dmodel\.model' is missing\.$/,
    ],
    [
      'a model without a build',
      () => withModel(modelXml({ objects: [{ id: 1, mesh: cube20 }], build: null })),
      '3mf-model',
      /^This 3MF file has no build: it does not say which objects to print\.$/,
    ],
    [
      'an empty build',
      () => withModel(modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [] })),
      '3mf-model',
      /build lists no object to print/,
    ],
    [
      'a build naming a missing object',
      () => withModel(modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 5 }] })),
      '3mf-model',
      /^This 3MF file's build names object 5, which this 3MF file does not define\.$/,
    ],
    [
      'a component naming a missing object',
      () =>
        withModel(
          modelXml({ objects: [{ id: 2, components: [{ objectid: 9 }] }], build: [{ objectid: 2 }] }),
        ),
      '3mf-model',
      /^Object 2 of this 3MF file names object 9, which this 3MF file does not define\.$/,
    ],
    [
      'a p:path to a part that is not there',
      () =>
        withModel(
          modelXml({
            objects: [{ id: 2, components: [{ objectid: 1, path: '/3D/Objects/gone.model' }] }],
            build: [{ objectid: 2 }],
          }),
        ),
      '3mf-model',
      /refers to the model part '\/3d\/objects\/gone\.model', which is not in the archive/,
    ],
    [
      'components that loop',
      () =>
        withModel(
          modelXml({
            objects: [
              { id: 1, components: [{ objectid: 2 }] },
              { id: 2, components: [{ objectid: 1 }] },
            ],
            build: [{ objectid: 1 }],
          }),
        ),
      '3mf-model',
      /contains itself/,
    ],
    [
      'an external entity',
      () =>
        withModel(
          modelXml({
            prolog: '<!DOCTYPE model [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
            objects: [{ id: 1, mesh: cube20 }],
            build: [{ objectid: 1 }],
          }),
        ),
      '3mf-xml',
      /declares a document type \(DOCTYPE\)/,
    ],
    [
      'malformed XML',
      () =>
        withModel(
          modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
            '</resources>',
            '</resourcez>',
          ),
        ),
      '3mf-xml',
      /is not well-formed XML/,
    ],
    ['text that is not UTF-8', () => notUtf8(), '3mf-xml', /not UTF-8 text/],
    [
      'an unknown unit',
      () =>
        withModel(modelXml({ unit: 'parsec', objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] })),
      '3mf-model',
      /unit 'parsec' is not one of micron, millimeter, centimeter, inch, foot or meter/,
    ],
    [
      'a vertex that is not a number',
      () =>
        withModel(
          modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
            'x="20"',
            'x="2O"',
          ),
        ),
      '3mf-model',
      /vertex x of '2O', which is not a number/,
    ],
    [
      'a huge coordinate',
      () =>
        withModel(
          modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
            'x="20"',
            'x="1e300"',
          ),
        ),
      'out-of-range',
      /too large to be real/,
    ],
    [
      'a triangle naming a missing vertex',
      () =>
        withModel(
          modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
            'v1="0"',
            'v1="99"',
          ),
        ),
      '3mf-model',
      /names vertex 99, but the object has 8 vertices/,
    ],
    [
      'a transform of 11 numbers',
      () =>
        withModel(
          modelXml({
            objects: [{ id: 1, mesh: cube20 }],
            build: [{ objectid: 1, transform: '1 0 0 0 1 0 0 0 1 0 0' }],
          }),
        ),
      '3mf-model',
      /transform '1 0 0 0 1 0 0 0 1 0 0' that is not 12 numbers/,
    ],
    [
      'a root that is not a 3MF model',
      () => withModel('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
      '3mf-model',
      /is not a 3MF model \(its root is <svg>\)/,
    ],
  ])('refuses %s', async (_what, make, code, message) => {
    const err = await refusal(make());
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  it('refuses a file whose build places a mesh more times than the triangle limit allows', async () => {
    const many = Array.from({ length: 50 }, () => ({ objectid: 2 }));
    const xml = modelXml({
      objects: [
        { id: 1, mesh: uvSphere(5, 256, 128) },
        { id: 2, components: Array.from({ length: 100 }, () => ({ objectid: 1 })) },
      ],
      build: many,
    });
    const err = await refusal(withModel(xml));
    expect(err.code).toBe('too-many-triangles');
  });
});

function zipOnly(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? new TextEncoder().encode(v) : v]),
    ),
  );
}

/** A model part with a Latin-1 byte in its metadata. */
function notUtf8(): Uint8Array {
  const xml = new TextEncoder().encode(
    modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }),
  );
  const at = xml.indexOf(0x74 /* 't' of 'tests' */, xml.indexOf(0x70 /* 'printshop' */));
  xml[at] = 0xe9;
  return zipOnly({ '3D/3dmodel.model': xml });
}

// relsXml is part of the fixtures' API: a start part that is not where .rels says is an error too.
describe('3MF package relationships', () => {
  it('refuses a start part that the relationships name but the archive lacks', async () => {
    const bytes = zipOnly({
      '_rels/.rels': relsXml('/3D/elsewhere.model'),
      '3D/3dmodel.model': modelXml({ objects: [], build: [] }),
    });
    const err = await refusal(bytes);
    expect(err.message).toBe("This 3MF file has no 3D model: its part '3D/elsewhere.model' is missing.");
  });

  it('refuses relationships that declare a DOCTYPE, as it refuses one in a model part', async () => {
    const rels = relsXml('/3D/3dmodel.model').replace(
      '<Relationships',
      '<!DOCTYPE r [<!ENTITY e SYSTEM "http://example.com/">]>\n<Relationships',
    );
    const bytes = zipOnly({
      '_rels/.rels': rels,
      '3D/3dmodel.model': modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }),
    });
    const err = await refusal(bytes);
    expect(err.code).toBe('3mf-xml');
    expect(err.message).toMatch(/DOCTYPE/);
  });
});

// Indices are kept in an Int32Array: 2^32 once wrapped to vertex 0 (and was read as a valid model), 2^31
// turned negative. Each reading refuses them before they are stored.
describe('3MF vertex indices past what an Int32Array holds', () => {
  const readings = ['bytes', 'text', 'saxes'] as const;
  it.each(
    readings.flatMap((reading) =>
      ['4294967296', '2147483648', '8', '99'].map((index) => [reading, index] as const),
    ),
  )('the %s reading refuses vertex %s of an 8-vertex object, naming it', async (reading, index) => {
    const bytes = withModel(
      modelXml({ objects: [{ id: 1, mesh: cube20 }], build: [{ objectid: 1 }] }).replace(
        'v1="0"',
        `v1="${index}"`,
      ),
    );
    const err = await read3mf(bytes, { reading }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MeshError);
    expect((err as MeshError).message).toBe(
      `A triangle of object 1 in this 3MF file names vertex ${index}, but the object has 8 vertices.`,
    );
  });
});
