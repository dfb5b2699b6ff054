// The model part reader's fast lane (plain <vertex> and <triangle> children read without saxes) must read
// exactly what saxes alone reads: the same objects and build, or the same refusal. Each test reads the same
// XML both ways, cut into chunks anywhere.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { box } from '../testing/generate.ts';
import { mutate, mutation } from '../testing/mutate.ts';
import { text } from '../testing/run.ts';
import { modelXml } from '../testing/threemf.ts';
import { createModelPartReader } from './model-part.ts';

type Outcome = { objects: unknown; build: unknown; unit: string } | { error: string; message?: string };

function read(xml: string, cuts: number[], fastLane: boolean) {
  const reader = createModelPartReader('/3D/3dmodel.model', { used: 0 }, { fastLane });
  let outcome: Outcome;
  try {
    let at = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      reader.write(xml.slice(at, Math.max(at, cut)));
      at = Math.max(at, cut);
    }
    reader.write(xml.slice(at));
    const part = reader.end();
    const objects = [...part.objects].map(([id, o]) =>
      o.kind === 'mesh'
        ? [id, Array.from(o.vertices), Array.from(o.triangles)]
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

function expectSameBothWays(xml: string, cuts: number[] = []) {
  const lane = read(xml, cuts, true);
  expect(lane.outcome).toEqual(read(xml, [], false).outcome);
  return lane;
}

const CORE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';

/** A model with one mesh object whose <vertices> and <triangles> hold the given children. */
function meshXml(vertices: string, triangles: string, root = `xmlns="${CORE}"`): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<model unit="millimeter" ${root}>
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

describe('the 3MF fast lane', () => {
  it('reads plain children itself, and the same as saxes, cut anywhere', () => {
    const xml = modelXml({ objects: [{ id: 1, mesh: box(2, 3, 4) }], build: [{ objectid: 1 }] });
    const whole = expectSameBothWays(xml);
    // 8 vertices and 12 triangles.
    expect(whole.laneElements).toBe(20);
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
    expect(laneElements).toBe(4);
  }, 30_000);

  it('leaves a mesh whose core namespace has a prefix to saxes', () => {
    const xml = meshXml(plainVertices, plainTriangles, `xmlns:c="${CORE}"`)
      .replace(/<(\/?)(?!\?)/g, '<$1c:')
      .replace('<c:?xml', '<?xml');
    const { outcome, laneElements } = expectSameBothWays(xml);
    expect(outcome).toMatchObject({ unit: 'millimeter' });
    expect(laneElements).toBe(0);
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
});
