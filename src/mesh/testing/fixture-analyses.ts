// The analyses of every model file in fixtures/real-world, of 3MF files built from them, and of generated
// models that reach every branch of the topology (holes, inverted and nested shells, edges of more than
// two faces, mirrored and repeated instances, unit scaling, degenerate faces, duplicate and unused
// vertices), for the differential test: fixture-analyses.json holds them as the code gave them before the
// topology was made fast, and fixture-analyses.test.ts checks that nothing changed by a bit.
// `npx tsx src/mesh/testing/fixture-analyses.ts --write` records them again.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeMesh } from '../analysis.ts';
import { detectFormat } from '../detect.ts';
import { createParser } from '../parse.ts';
import { analyse3mf, read3mf } from '../threemf/read.ts';
import type { MeshAnalysis, MeshExtension } from '../types.ts';
import {
  box,
  type IndexedMesh,
  inverted,
  merged,
  toAsciiStl,
  toBinaryStl,
  toObj,
  torus,
  translated,
  triangles,
  uvSphere,
  withoutFace,
} from './generate.ts';
import { outcome } from './run.ts';
import { bambu3mf, type ModelSpec, scaleMove, simple3mf } from './threemf.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURE_ANALYSES_FILE = path.join(here, 'fixture-analyses.json');
const realWorld = path.resolve(here, '../../../fixtures/real-world');

type Outcome = MeshAnalysis | { error: string; message: string };

async function outcome3mf(bytes: Uint8Array): Promise<Outcome> {
  try {
    return analyse3mf(await read3mf(bytes)).analysis;
  } catch (e) {
    return outcome(() => {
      throw e;
    });
  }
}

function modelFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modelFiles(full));
    else if (/\.(stl|obj)$/i.test(entry.name)) out.push(full);
  }
  return out;
}

/** The triangles a parser reads from a file, as a soup mesh (three vertices a triangle), or null. */
function soup(bytes: Uint8Array, extension: MeshExtension): IndexedMesh | null {
  try {
    const format = detectFormat(bytes, bytes.length, extension);
    const vertices: number[] = [];
    const parser = createParser(format, {
      triangles: (p, _ids, n) => {
        for (let k = 0; k < 9 * n; k++) vertices.push(p[k]!);
      },
    });
    parser.push(bytes);
    parser.finish();
    const faces: number[][] = [];
    for (let k = 0; k < vertices.length / 3; k += 3) faces.push([k, k + 1, k + 2]);
    return faces.length > 0 ? { vertices, faces } : null;
  } catch {
    return null;
  }
}

const MIRROR = '-1 0 0 0 1 0 0 0 1 100 0 0';
const TURN = '0 1 0 -1 0 0 0 0 1 0 0 7.25';

/** 3MF files of one mesh: alone, placed twice (once mirrored), and as Bambu Studio writes it. */
function threeMfOf(name: string, mesh: IndexedMesh, unit = 'millimeter'): Array<[string, Uint8Array]> {
  const spec = (build: ModelSpec['build']): ModelSpec => ({ unit, objects: [{ id: 1, mesh }], build });
  return [
    [`${name}.3mf`, simple3mf(spec([{ objectid: 1 }]))],
    [`${name} twice, mirrored.3mf`, simple3mf(spec([{ objectid: 1 }, { objectid: 1, transform: MIRROR }]))],
    [
      `${name} bambu.3mf`,
      bambu3mf(
        [
          { mesh, transform: TURN },
          { mesh, componentTransform: scaleMove(0.5, 1, 2, 3) },
        ],
        unit,
      ),
    ],
  ];
}

function generated(): Array<[string, IndexedMesh]> {
  const cube = box(10, 10, 10);
  const inner = box(4, 4, 4, 3, 3, 3);
  const sphere = uvSphere(20, 24, 12);
  // Two cubes sharing one edge: edges of four faces.
  const touching = merged(box(10, 10, 10), box(10, 10, 10, 10, 10, 0));
  // Exact-duplicate vertices, an unused vertex, -0 and a degenerate face.
  const dup: IndexedMesh = {
    vertices: [...cube.vertices, 0, 0, 0, -0, 10, 0, 1e5, 1e5, 1e5],
    faces: [...cube.faces.map((f) => f.map((i) => (i === 0 ? 8 : i === 2 ? 9 : i))), [1, 1, 3]],
  };
  return [
    ['cube', cube],
    ['sphere', sphere],
    ['torus', torus(30, 8, 32, 16)],
    ['open sphere', withoutFace(sphere, 5)],
    ['inverted sphere', inverted(sphere)],
    ['hollow cube', merged(cube, inverted(inner))],
    ['hollow cube, wrong way', merged(inverted(cube), inner)],
    ['two spheres', merged(sphere, translated(inverted(sphere), 100, 0, 0))],
    ['touching cubes', touching],
    ['touching cubes, one open', merged(withoutFace(box(10, 10, 10), 1), box(10, 10, 10, 10, 10, 0))],
    ['duplicates and unused', dup],
  ];
}

/** Every case's name and analysis (or error), in a fixed order. */
export async function fixtureAnalyses(): Promise<Array<[string, Outcome]>> {
  const out: Array<[string, Outcome]> = [];
  for (const file of modelFiles(realWorld)) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const extension = file.toLowerCase().endsWith('.obj') ? 'obj' : 'stl';
    const name = path.relative(realWorld, file);
    out.push([name, outcome(() => analyzeMesh(bytes, extension))]);
    const mesh = soup(bytes, extension);
    if (mesh) for (const [n, b] of threeMfOf(name, mesh)) out.push([n, await outcome3mf(b)]);
  }
  for (const [name, mesh] of generated()) {
    const tris = triangles(mesh);
    out.push([`${name}.stl (binary)`, outcome(() => analyzeMesh(toBinaryStl(tris), 'stl'))]);
    out.push([`${name}.stl (ASCII)`, outcome(() => analyzeMesh(toAsciiStl(tris), 'stl'))]);
    out.push([`${name}.obj`, outcome(() => analyzeMesh(toObj(mesh), 'obj'))]);
    for (const [n, b] of threeMfOf(name, mesh)) out.push([n, await outcome3mf(b)]);
    for (const [n, b] of threeMfOf(`${name} in inches`, mesh, 'inch')) out.push([n, await outcome3mf(b)]);
  }
  // Coordinates out of range after the transform: an error on a used vertex, none on an unused one.
  const [, dup] = generated().at(-1)!;
  for (const [name, scale] of [
    ['scaled out of range', 2e37],
    ['unused vertex scaled out of range', 1e34],
  ] as const) {
    const spec: ModelSpec = {
      objects: [{ id: 1, mesh: dup }],
      build: [{ objectid: 1 }, { objectid: 1, transform: scaleMove(scale) }],
    };
    out.push([`${name}.3mf`, await outcome3mf(simple3mf(spec))]);
  }
  return out;
}

if (process.argv.includes('--write')) {
  const all = await fixtureAnalyses();
  fs.writeFileSync(FIXTURE_ANALYSES_FILE, `${JSON.stringify(Object.fromEntries(all), null, 1)}\n`);
  console.log(`${all.length} analyses written to ${FIXTURE_ANALYSES_FILE}`);
}
