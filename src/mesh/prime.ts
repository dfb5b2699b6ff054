// Warms the parsers up on small models once per process, before the first real file.
//
// Why: V8 optimises a hot function either as a whole (fast) or, when the heat is found inside a
// long loop, by on-stack replacement of that loop. In Node 20 the OSR code of our hot loops runs
// 2-4 times slower, and once a function lives in OSR code V8 may never optimise it as a whole:
// whether a 64 MB analysis takes 10 or 30 ms was a coin toss per process. A few hundred calls on
// small inputs first (short loops, no OSR) get every hot function optimised the normal way.

import type { MeshFormat } from './types.ts';

let primed = false;

/** Runs `analyse` on small models of each format, once per process (about 30 ms). */
export function primeOnce(analyse: (format: MeshFormat, bytes: Uint8Array, round: number) => void): void {
  if (primed) return;
  primed = true;
  const samples = samplesOf(ring(12, 6));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [format, bytes] of samples) analyse(format, bytes, round);
  }
}

const ROUNDS = 8;

/** A closed ring (torus) of segments x sides quads, as triangles of 9 numbers. */
function ring(segments: number, sides: number): number[] {
  const at = (i: number, j: number): [number, number, number] => {
    const u = (2 * Math.PI * (i % segments)) / segments;
    const v = (2 * Math.PI * (j % sides)) / sides;
    const d = 10 + 3 * Math.cos(v);
    return [d * Math.cos(u), d * Math.sin(u), 3 * Math.sin(v)];
  };
  const tris: number[] = [];
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < sides; j++) {
      tris.push(...at(i, j), ...at(i + 1, j), ...at(i + 1, j + 1));
      tris.push(...at(i, j), ...at(i + 1, j + 1), ...at(i, j + 1));
    }
  }
  return tris;
}

function samplesOf(tris: number[]): Array<[MeshFormat, Uint8Array]> {
  const count = tris.length / 9;
  const binary = new Uint8Array(84 + 50 * count);
  const view = new DataView(binary.buffer);
  view.setUint32(80, count, true);
  const ascii: string[] = ['solid prime\n'];
  const obj: string[] = [];
  for (let t = 0; t < count; t++) {
    for (let c = 0; c < 9; c++) view.setFloat32(84 + 50 * t + 12 + 4 * c, tris[9 * t + c]!, true);
    const v = (c: number) =>
      `${tris[9 * t + c]!.toFixed(6)} ${tris[9 * t + c + 1]!.toFixed(6)} ${tris[9 * t + c + 2]!.toFixed(6)}`;
    ascii.push(
      `facet normal 0 0 1\n  outer loop\n    vertex ${v(0)}\n    vertex ${v(3)}\n    vertex ${v(6)}\n  endloop\nendfacet\n`,
    );
    obj.push(
      `v ${v(0)}\nv ${v(3)}\nv ${v(6)}\nf -3 -2 -1\nf ${3 * t + 1}/1 ${3 * t + 2}/1/1 ${3 * t + 3}//1\n`,
    );
  }
  ascii.push('endsolid prime\n');
  const encoder = new TextEncoder();
  return [
    ['stl-binary', binary],
    ['stl-ascii', encoder.encode(ascii.join(''))],
    ['obj', encoder.encode(obj.join(''))],
  ];
}
