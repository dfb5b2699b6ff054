// The model part reader's fast ways (plain <vertex> and <triangle> children read without saxes: the text
// lane on decoded text, and the byte path on the part's bytes) must read exactly what saxes alone reads:
// the same objects and build, bit for bit, or the same refusal. Each test reads the same XML every way, cut
// into chunks anywhere.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { MAX_TRIANGLES } from '../geometry.ts';
import { box } from '../testing/generate.ts';
import { mutate, mutation } from '../testing/mutate.ts';
import { text } from '../testing/run.ts';
import { modelXml } from '../testing/threemf.ts';
import { createModelPartReader } from './model-part.ts';

type Outcome = { objects: unknown; build: unknown; unit: string } | { error: string; message?: string };
/** 'text': the text lane on decoded text; 'bytes': the byte path; 'saxes': saxes alone, the reference. */
type Way = 'text' | 'bytes' | 'saxes';

/** Coordinates as their bit patterns: -0 is not 0, and no two doubles look alike. */
const bits = (values: Float64Array) => Array.from(new Uint32Array(Float64Array.from(values).buffer));

function read(xml: string, cuts: number[], way: Way, used = 0) {
  const reader = createModelPartReader('/3D/3dmodel.model', { used }, { fastLane: way !== 'saxes' });
  let outcome: Outcome;
  try {
    const whole = way === 'bytes' ? text(xml) : xml;
    const write = (from: number, to: number) => {
      if (typeof whole === 'string') reader.write(whole.slice(from, to));
      else reader.writeBytes(whole.subarray(from, to));
    };
    let at = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      write(at, Math.max(at, cut));
      at = Math.max(at, cut);
    }
    write(at, whole.length);
    const part = reader.end();
    const objects = [...part.objects].map(([id, o]) =>
      o.kind === 'mesh'
        ? [id, bits(o.vertices), Array.from(o.triangles)]
        : [id, o.components.map((c) => ({ ...c, transform: c.transform && Array.from(c.transform) }))],
    );
    outcome = { objects, build: part.build, unit: part.unit };
  } catch (err) {
    if (!(err instanceof MeshError)) throw err;
    // saxes' messages name a position in the text it was given, which the lane's text is not part of.
    outcome = err.code === '3mf-xml' ? { error: err.code } : { error: err.code, message: err.message };
  }
  return { outcome, laneElements: reader.laneElements() };
}

/**
 * Reads xml the text lane's way and the byte path's way, each the same as saxes alone: the outcome, and the
 * children each read without saxes.
 */
function expectSameBothWays(xml: string, cuts: number[] = [], used = 0) {
  const reference = read(xml, [], 'saxes', used).outcome;
  const lane = read(xml, cuts, 'text', used);
  expect(lane.outcome).toEqual(reference);
  const bytes = read(xml, cuts, 'bytes', used);
  expect(bytes.outcome).toEqual(reference);
  return { outcome: reference, laneElements: [lane.laneElements, bytes.laneElements] };
}

const CORE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';

/** A model with one mesh object whose <vertices> and <triangles> hold the given children. */
function meshXml(vertices: string, triangles: string, root = `xmlns="${CORE}"`, unit = 'millimeter'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<model unit="${unit}" ${root}>
 <resources>
  <object id="1" type="model">
   <mesh>
    <vertices>${vertices}</vertices>
    <triangles>${triangles}</triangles>
   </mesh>
  </object>
 </resources>
 <build><item objectid="1"/></build>
</model>`;
}

const plainVertices = '<vertex x="0" y="0" z="0"/><vertex x="10" y="0" z="0"/><vertex x="0" y="10" z="0"/>';
const plainTriangles = '<triangle v1="0" v2="1" v3="2"/>';

describe('the 3MF fast lane and byte path', () => {
  it('reads plain children itself, and the same as saxes, cut anywhere', () => {
    const xml = modelXml({ objects: [{ id: 1, mesh: box(2, 3, 4) }], build: [{ objectid: 1 }] });
    const whole = expectSameBothWays(xml);
    // 8 vertices and 12 triangles.
    expect(whole.laneElements).toEqual([20, 20]);
    for (let cut = 0; cut <= xml.length; cut++) expectSameBothWays(xml, [cut]);
  });

  it('leaves every other form to saxes, and reads the same', () => {
    const forms: Array<[string, string]> = [
      // Single quotes, spaces around '=', an entity, attributes in any order, newlines and tabs.
      [
        `<vertex x='0' y='0' z='0'/><vertex x = "10" y="0" z="0"/><vertex z="0" y="1&#48;" x="0"/>`,
        plainTriangles,
      ],
      [
        `<vertex\n\tx="0"\r\n y="0" z="0" /><vertex x="10" y="0" z="0"></vertex><vertex x="0" y="10" z="0"/>`,
        plainTriangles,
      ],
      // Material properties on a triangle, which neither reads; an attribute of another namespace.
      [plainVertices, '<triangle v1="0" v2="1" v3="2" p1="3" pid="1"/>'],
      [plainVertices, '<triangle v1="0" v2="1" v3="2" foo="x"/>'],
      // Comments and CDATA between children, with what looks like a child inside: not read.
      [`<!-- <vertex x="99" y="99" z="99"/> -->${plainVertices}<!-- a > b -->`, plainTriangles],
      [`${plainVertices}<![CDATA[ <vertex x="5" y="5" z="5"/> ]]>`, plainTriangles],
      [`${plainVertices}<?pi <vertex x="5" y="5" z="5"/> ?>`, plainTriangles],
      // Padding in the numbers, indices with leading zeros or spaces.
      [
        '<vertex x=" 0 " y="0.0" z="-0"/><vertex x="1e1" y="+0" z=".0"/><vertex x="0." y="10" z="0"/>',
        '<triangle v1="000" v2=" 1" v3="2 "/>',
      ],
      // Children saxes refuses or the reader refuses: the same refusal.
      ['<vertex x="0" x="1" y="0" z="0"/>', plainTriangles],
      ['<vertex x="0"y="0" z="0"/>', plainTriangles],
      ['<vertex x="0" y="0"/>', plainTriangles],
      ['<vertex x="1e999" y="0" z="0"/>', plainTriangles],
      ['<vertex x="--1" y="0" z="0"/>', plainTriangles],
      ['<vertex x="" y="0" z="0"/>', plainTriangles],
      [plainVertices, '<triangle v1="0" v2="1" v3="9"/>'],
      [plainVertices, '<triangle v1="0" v2="1" v3="-2"/>'],
      [plainVertices, '<triangle v1="0" v2="1" v3="12345678901"/>'],
      [plainVertices, '<triangle v1="0" v2="1" v3="2" v1="0"/>'],
      [plainVertices, '<triangle v1="0" v2="1" v3="2" pid="1" pid="1"/>'],
      [plainVertices, '<triangle v1="0" v2="1"/>'],
      [`${plainVertices}<vertex x="0" y="0" z="0"`, plainTriangles],
      [`${plainVertices}<vertex x="0" y="0" z="0"/`, plainTriangles],
      [`${plainVertices}<vertex x="0" y="0" z="0">`, plainTriangles],
      [`${plainVertices}</vertices><vertices>`, plainTriangles],
      [`${plainVertices}<vertex x="0" y="0" z="0"/>\u0001`, plainTriangles],
      // Children of the wrong container, or of another namespace.
      [`${plainVertices}<triangle v1="0" v2="1" v3="2"/>`, ''],
      [plainVertices, '<vertex x="0" y="0" z="0"/><triangle v1="0" v2="1" v3="2"/>'],
      [`<vertex xmlns="urn:other" x="5" y="5" z="5"/>${plainVertices}`, plainTriangles],
      [`<o:vertex xmlns:o="urn:other" x="5" y="5" z="5"/>${plainVertices}`, plainTriangles],
    ];
    for (const [vertices, triangles] of forms) {
      const xml = meshXml(vertices, triangles);
      for (let cut = 0; cut <= xml.length; cut += 7) expectSameBothWays(xml, [cut]);
    }
  });

  it('hands a child longer than a chunk to saxes instead of carrying it from chunk to chunk', () => {
    // 16 MB of digits in 4 kB chunks: carried on, it would be copied again with each of 4,000 chunks.
    const xml = meshXml(
      `${plainVertices}<vertex x="${'1'.repeat(16_000_000)}" y="0" z="0"/>`,
      plainTriangles,
    );
    const cuts = Array.from({ length: Math.ceil(xml.length / 4096) }, (_, k) => k * 4096);
    const { outcome } = expectSameBothWays(xml, cuts);
    expect(outcome).toMatchObject({ error: 'out-of-range' });
  }, 30_000);

  it('looks for where it may start in one pass, however often the words come before', () => {
    const words = '<!-- vertices -->'.repeat(200_000);
    const xml = meshXml(plainVertices, plainTriangles).replace('<resources>', `${words}<resources>`);
    const { outcome, laneElements } = expectSameBothWays(xml);
    expect(outcome).toMatchObject({ unit: 'millimeter' });
    expect(laneElements).toEqual([4, 4]);
  }, 30_000);

  it('leaves a mesh whose core namespace has a prefix to saxes', () => {
    const xml = meshXml(plainVertices, plainTriangles, `xmlns:c="${CORE}"`)
      .replace(/<(\/?)(?!\?)/g, '<$1c:')
      .replace('<c:?xml', '<?xml');
    const { outcome, laneElements } = expectSameBothWays(xml);
    expect(outcome).toMatchObject({ unit: 'millimeter' });
    expect(laneElements).toEqual([0, 0]);
  });

  it('reads mutated model XML the same as saxes, cut anywhere', () => {
    const xml = meshXml(
      '<vertex x="0" y="0" z="0"/> <vertex x="10" y="0" z="0"/>\n<vertex x="0" y="10" z="0"/><vertex x="0" y="0" z="10"/>',
      '<triangle v1="0" v2="1" v3="2"/><triangle v1="0" v2="1" v3="3" p1="1"/><triangle v1="1" v2="2" v3="3"/><triangle v1="0" v2="3" v3="2"/>',
    );
    const bytes = text(`<>/="' &#;!-[]:xmlns vertex triangle v1 v2 v3 pid xyz0123456789.eE-+\n\t\r`);
    const xmlMutation = fc.oneof(
      mutation,
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.constantFrom(...bytes) }),
    );
    fc.assert(
      fc.property(
        fc.array(xmlMutation, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(xml.length + 20), { maxLength: 3 }),
        (mutations, cuts) => {
          const mutated = new TextDecoder().decode(mutate(text(xml), mutations));
          expectSameBothWays(mutated, cuts);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads numbers in every form, in every unit, to the bits saxes reads, cut anywhere', () => {
    fc.assert(
      fc.property(meshChildren, fc.constantFrom(...UNITS), cutsIn(4000, 20), ([v, t], unit, cuts) => {
        const xml = meshXml(v, t, `xmlns="${CORE}"`, unit);
        const { outcome } = expectSameBothWays(xml, cuts);
        return outcome !== null;
      }),
      { numRuns: 1500 },
    );
  });

  it('takes the children written in the usual forms without saxes, whatever the chunks', () => {
    fc.assert(
      fc.property(usualChildren, cutsIn(3000, 30), ([v, t, count], cuts) => {
        const { outcome, laneElements } = expectSameBothWays(meshXml(v, t), cuts);
        expect(outcome).toMatchObject({ unit: 'millimeter' });
        // The byte path's (the text lane may leave a mesh to saxes where a chunk cuts its <vertices> tag).
        expect(laneElements[1]).toBe(count);
      }),
      { numRuns: 300 },
    );
  });

  it('decodes the text around the children whole, however a chunk cuts a character', () => {
    const xml = meshXml(
      `<!-- Würfel, 立方体 🧊 --><vertex x="1" y="2" z="3"/>é<vertex x="4" y="5" z="6"/><vertex x="7" y="8" z="9"/>`,
      '<triangle v1="0" v2="1" v3="2"/><!--🧊--><triangle v1="2" v2="1" v3="0"/>',
    ).replace('<object id="1" type="model">', '<object id="1" type="model" name="Würfel 🧊">');
    const bytes = text(xml).length;
    for (let cut = 0; cut <= bytes; cut++) expectSameBothWays(xml, [cut, cut + 1, cut + 3]);
  });

  it('counts the triangles the byte path reads against the limit of the file', () => {
    const xml = meshXml(plainVertices, plainTriangles.repeat(3));
    expect(expectSameBothWays(xml, [], MAX_TRIANGLES - 3).outcome).toMatchObject({ unit: 'millimeter' });
    expect(expectSameBothWays(xml, [], MAX_TRIANGLES - 2).outcome).toEqual({
      error: 'too-many-triangles',
      message: 'The model has more than 5,000,000 triangles: please simplify it before uploading.',
    });
  });
});

const UNITS = ['millimeter', 'micron', 'centimeter', 'inch', 'foot', 'meter'];

/** Sorted chunk cuts, up to count of them, below max. */
const cutsIn = (max: number, count: number) =>
  fc.array(fc.nat(max), { maxLength: count }).map((c) => c.sort((a, b) => a - b));

/** Coordinates as exporters write them, and (rarely) forms the engine leaves or saxes refuses. */
const coordinate = fc.oneof(
  {
    weight: 30,
    arbitrary: fc
      .double({ min: -3000, max: 3000, noNaN: true })
      .chain((x) =>
        fc.constantFrom(
          x.toFixed(3),
          x.toFixed(6),
          x.toFixed(9),
          x.toPrecision(9),
          x.toPrecision(17),
          x.toExponential(6),
          x.toExponential(8).toUpperCase(),
          String(Math.round(x)),
          String(x),
          String(x / 1e6),
          String(x * 1e-20),
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '+1.5',
      '.5',
      '-.25',
      '1.',
      '-0',
      '0.000000000000000000001',
      '12345678901234567890',
      '9007199254740993',
      '1e+005',
      '2.5e-3',
      '1E2',
      '1e300',
      '1e',
      '1.2.3',
      ' 1',
      '1 ',
      '',
      'abc',
      '&#49;',
    ),
  },
);

const space = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '\n      ');
const childSpace = fc.constantFrom('', '\n', '\n     ', '\r\n     ', ' ', '\t');

/** One <vertex>: usually x y z in order, sometimes in another order, or with one missing or doubled. */
const vertex = fc
  .tuple(
    fc.array(coordinate, { minLength: 3, maxLength: 3 }),
    fc.constantFrom('xyz', 'xyz', 'xyz', 'xyz', 'zyx', 'yxz', 'xy', 'xyzx', 'xyzw'),
    fc.array(space, { minLength: 4, maxLength: 4 }),
    fc.constantFrom('', '', ' ', '\n'),
    childSpace,
  )
  .map(([values, order, spaces, beforeEnd, before]) => {
    const attributes = [...order].map((name, k) => `${spaces[k]}${name}="${values[k % 3]}"`);
    return `${before}<vertex${attributes.join('')}${beforeEnd}/>`;
  });

/** One <triangle> over count vertices: usually plain, with material properties or odd indices sometimes. */
const triangle = (count: number) =>
  fc
    .tuple(
      fc.array(
        fc.oneof(
          { weight: 20, arbitrary: fc.nat(count - 1).map(String) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('007', String(count), '-1', '1e0', ' 1', '4294967296', ''),
          },
        ),
        { minLength: 3, maxLength: 3 },
      ),
      fc.constantFrom(
        '',
        '',
        '',
        ' p1="0"',
        ' pid="2" p1="0" p2="1" p3="2"',
        ' p1="x"',
        ' foo="1"',
        ' v1="0"',
      ),
      fc.constantFrom('v1 v2 v3', 'v1 v2 v3', 'v3 v1 v2', 'v1 v2'),
      childSpace,
    )
    .map(([indices, extra, order, before]) => {
      const attributes = order.split(' ').map((name, k) => ` ${name}="${indices[k]}"`);
      return `${before}<triangle${attributes.join('')}${extra}/>`;
    });

/** The children of a mesh's <vertices> and <triangles>. */
const meshChildren = fc
  .array(vertex, { minLength: 1, maxLength: 30 })
  .chain((vertices) =>
    fc
      .array(triangle(vertices.length), { minLength: 1, maxLength: 30 })
      .map((triangles) => [vertices.join(''), triangles.join('')] as const),
  );

/** Children as the slicers write them, all plain: the vertices' and triangles' text, and their count. */
const usualChildren = fc
  .tuple(
    fc.array(
      fc
        .tuple(
          fc.array(fc.double({ min: -300, max: 300, noNaN: true }), { minLength: 3, maxLength: 3 }),
          fc.constantFrom(
            (x: number) => x.toFixed(6),
            (x: number) => x.toPrecision(9),
            (x: number) => String(Math.fround(x)),
            (x: number) => x.toPrecision(17),
          ),
        )
        .map(([[x, y, z], f]) => `\n     <vertex x="${f(x!)}" y="${f(y!)}" z="${f(z!)}"/>`),
      { minLength: 3, maxLength: 60 },
    ),
    fc.integer({ min: 1, max: 60 }),
  )
  .map(([vertices, count]) => {
    const triangles = Array.from(
      { length: count },
      (_, k) =>
        `\n     <triangle v1="${k % vertices.length}" v2="${(k + 1) % vertices.length}" v3="${(k * 7) % vertices.length}"/>`,
    );
    return [vertices.join(''), triangles.join(''), vertices.length + count] as const;
  });
