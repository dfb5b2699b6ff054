import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import { assertEnclosesVolume, enclosesVolume, NO_VOLUME_MESSAGE } from './encloses-volume.ts';
import { MeshError } from './errors.ts';
import {
  box,
  type IndexedMesh,
  inverted,
  merged,
  toAsciiStl,
  toBinaryStl,
  toObj,
  triangles,
  withoutFace,
} from './testing/generate.ts';
import { outcome } from './testing/run.ts';
import { simple3mf } from './testing/threemf.ts';
import { analyse3mf, read3mf } from './threemf/read.ts';
import type { MeshAnalysis } from './types.ts';

// "Encloses no volume" is judged against the model's own size (docs/domain.md: a closed model is accepted
// however small): the same cube, sheet or open box gets the same verdict drawn in microns, millimetres or
// metres, in every format; and every real-world fixture gets the verdict the old absolute rule gave it.

const scaled = (mesh: IndexedMesh, s: number): IndexedMesh => ({
  vertices: mesh.vertices.map((v) => v * s),
  faces: mesh.faces,
});

/** The mesh (in mm) as binary STL, ASCII STL, OBJ and a 3MF file in `unit`, each analysed. */
async function everyFormat(mesh: IndexedMesh, unit: 'micron' | 'millimeter' | 'meter') {
  const perMm = { micron: 1000, millimeter: 1, meter: 0.001 }[unit];
  const tris = triangles(mesh);
  const threemf = simple3mf({
    unit,
    objects: [{ id: 1, mesh: scaled(mesh, perMm) }],
    build: [{ objectid: 1 }],
  });
  return {
    'binary STL': analyzeMesh(toBinaryStl(tris), 'stl'),
    'ASCII STL': analyzeMesh(toAsciiStl(tris), 'stl'),
    OBJ: analyzeMesh(toObj(mesh), 'obj'),
    [`3MF in ${unit}`]: analyse3mf(await read3mf(threemf)).analysis,
  } as Record<string, MeshAnalysis>;
}

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

/** A square (side mm) on a slanted plane, not along any axis, so that its volume sum has rounding in it. */
function slantedSquare(side: number): IndexedMesh {
  const at = (u: number, v: number) => [u * side, v * side * 0.6, u * side * 0.3 + v * side * 0.8];
  return { vertices: [...at(0, 0), ...at(1, 0), ...at(1, 1), ...at(0, 1)], faces: [[0, 1, 2, 3]] };
}

/** Both faces of the square: closed (each edge once each way) and flat. */
const doubleSided = (sheet: IndexedMesh) => merged(sheet, inverted(sheet));

/**
 * A flat closed disc (radius mm) on a slanted plane, its two faces split into triangles differently (fans
 * from neighbouring corners), so that their volume sums do not cancel term by term.
 */
function flatPillow(radius: number, corners = 24): IndexedMesh {
  const vertices: number[] = [];
  for (let k = 0; k < corners; k++) {
    const u = radius * Math.cos((2 * Math.PI * k) / corners);
    const v = radius * Math.sin((2 * Math.PI * k) / corners);
    vertices.push(u, v * 0.6, u * 0.3 + v * 0.8);
  }
  const faces: number[][] = [];
  for (let k = 1; k + 1 < corners; k++) faces.push([0, k, k + 1]);
  for (let k = 1; k + 1 < corners; k++) faces.push([1, (k + 2) % corners, k + 1]);
  return { vertices, faces };
}

describe('a closed model is a solid however small or big', () => {
  it('accepts a cube of 1 µm (0.001 mm) with its volume and size, in every format', async () => {
    for (const [format, a] of Object.entries(await everyFormat(box(0.001, 0.001, 0.001), 'micron'))) {
      expect(enclosesVolume(a), format).toBe(true);
      expect(a.watertight, format).toBe(true);
      // 1e-9 mm³ is 1e-12 cm³ (a binary STL holds 0.001 as float32: 0.0010000000475).
      expect(relative(a.volumeCm3, 1e-12), format).toBeLessThan(2e-7);
      for (const side of [a.dimensions.x, a.dimensions.y, a.dimensions.z])
        expect(relative(side, 0.001), format).toBeLessThan(1e-7);
    }
  });

  it('accepts a cube of 1 m with its volume and size, in every format', async () => {
    for (const [format, a] of Object.entries(await everyFormat(box(1000, 1000, 1000), 'meter'))) {
      expect(enclosesVolume(a), format).toBe(true);
      expect(a).toMatchObject({
        watertight: true,
        volumeCm3: 1e6,
        dimensions: { x: 1000, y: 1000, z: 1000 },
      });
    }
  });

  it('accepts thin parts: a 1 m thread 0.01 mm thick, a 300 mm film 0.01 mm thick', () => {
    const thread = analyzeMesh(toObj(box(1000, 0.01, 0.01)), 'obj');
    expect(thread.volumeCm3).toBeCloseTo(1e-4, 12);
    expect(enclosesVolume(thread)).toBe(true);
    expect(enclosesVolume(analyzeMesh(toObj(box(300, 300, 0.01)), 'obj'))).toBe(true);
  });
});

describe('a flat or open surface encloses no volume, at any size', () => {
  const cases: Array<[string, IndexedMesh]> = [
    ['an open flat sheet', slantedSquare(1)],
    ['a closed flat sheet (both faces)', doubleSided(slantedSquare(1))],
  ];
  for (const [name, mesh] of cases) {
    for (const [unit, s] of [
      ['micron', 0.001],
      ['millimeter', 20],
      ['meter', 1000],
    ] as const) {
      it(`refuses ${name} ${s} mm across, in every format`, async () => {
        for (const [format, a] of Object.entries(await everyFormat(scaled(mesh, s), unit))) {
          expect(enclosesVolume(a), `${format}: ${a.volumeCm3} cm³`).toBe(false);
        }
      });
    }
  }

  it('refuses closed flat discs whose volume sums round to more than the old floor of 1e-6 mm³', () => {
    // 100 m across: rounding in the sum. 20 mm across in a binary STL: float32 corners just off the plane.
    for (const a of [
      analyzeMesh(toObj(flatPillow(50_000)), 'obj'),
      analyzeMesh(toBinaryStl(triangles(flatPillow(10))), 'stl'),
    ]) {
      expect(a.watertight).toBe(true);
      expect(a.volumeCm3).toBeGreaterThan(1e-9);
      expect(enclosesVolume(a)).toBe(false);
    }
  });

  it('refuses a tiny open box (an open surface of less than 1 mm³), accepts a big one', async () => {
    const open = withoutFace(box(1, 1, 1), 1);
    for (const a of Object.values(await everyFormat(scaled(open, 0.001), 'micron'))) {
      expect(a.watertight).toBe(false);
      expect(enclosesVolume(a)).toBe(false);
    }
    for (const a of Object.values(await everyFormat(scaled(open, 1000), 'meter'))) {
      expect(enclosesVolume(a)).toBe(true);
    }
  });

  it("says so in the shop's words", () => {
    const sheet = analyzeMesh(toObj(slantedSquare(0.001)), 'obj');
    expect(() => assertEnclosesVolume(sheet)).toThrow(new MeshError('no-volume', NO_VOLUME_MESSAGE));
    expect(NO_VOLUME_MESSAGE).toBe(
      'This model encloses no volume (it is a flat or open surface), so there is nothing to print.',
    );
  });
});

describe('real-world models keep their verdict', () => {
  const fixtures = path.resolve(fileURLToPath(new URL('../../fixtures/real-world', import.meta.url)));
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .filter((f) => /\.(stl|obj)$/i.test(f));

  it('gives every fixture the answer of the absolute floors it replaces (1 mm³ open, 1e-6 mm³ closed)', () => {
    let accepted = 0;
    let refused = 0;
    for (const file of files(fixtures)) {
      const bytes = new Uint8Array(fs.readFileSync(file));
      const result = outcome(() => analyzeMesh(bytes, file.endsWith('.obj') ? 'obj' : 'stl'));
      if ('error' in result) continue;
      const before = result.volumeCm3 >= (result.watertight ? 1e-9 : 0.001);
      expect(enclosesVolume(result), path.relative(fixtures, file)).toBe(before);
      if (before) accepted++;
      else refused++;
    }
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(10);
  });
});
