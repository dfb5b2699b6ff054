// Makes the six gallery images of the home page: printable-looking models built here from a few
// lines of geometry each, rendered by the shop's own preview rasteriser in the shop colours.
// Run: npx tsx scripts/make-gallery.ts   (writes src/client/public/gallery/01-vase.png ... 06-tray.png)

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng, type PreviewOptions, renderPreview } from '../src/mesh/index.ts';
import { type IndexedMesh, merged, triangles } from '../src/mesh/testing/generate.ts';

const WIDTH = 800;
const HEIGHT = 600;
const BACKGROUND: [string, string] = ['#fbfcfd', '#e3e8ee'];

/** A closed solid of revolution around z from a profile of [radius, z] points, axis to axis. */
function revolve(profile: Array<[number, number]>, segments: number): IndexedMesh {
  const vertices: number[] = [];
  const index: number[][] = [];
  for (const [r, z] of profile) {
    const ring: number[] = [];
    if (r === 0) {
      ring.push(vertices.length / 3);
      vertices.push(0, 0, z);
    } else {
      for (let s = 0; s < segments; s++) {
        const t = (2 * Math.PI * s) / segments;
        ring.push(vertices.length / 3);
        vertices.push(r * Math.cos(t), r * Math.sin(t), z);
      }
    }
    index.push(ring);
  }
  const faces: number[][] = [];
  for (let k = 0; k + 1 < index.length; k++) {
    const a = index[k]!;
    const b = index[k + 1]!;
    for (let s = 0; s < segments; s++) {
      const a0 = a[a.length === 1 ? 0 : s]!;
      const a1 = a[a.length === 1 ? 0 : (s + 1) % segments]!;
      const b0 = b[b.length === 1 ? 0 : s]!;
      const b1 = b[b.length === 1 ? 0 : (s + 1) % segments]!;
      // Outward for a profile that goes up the outside: (a0, a1, b1, b0) counter-clockwise.
      const quad = [a0, a1, b1, b0].filter((v, i, all) => all.indexOf(v) === i);
      if (quad.length >= 3) faces.push(quad);
    }
  }
  return { vertices, faces };
}

/** A closed prism between two outlines of the same point count, one above the other (layers). */
function loft(layers: Array<Array<[number, number, number]>>, capBottom = true, capTop = true): IndexedMesh {
  const vertices: number[] = [];
  const n = layers[0]!.length;
  for (const layer of layers) for (const [x, y, z] of layer) vertices.push(x, y, z);
  const faces: number[][] = [];
  for (let l = 0; l + 1 < layers.length; l++) {
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      faces.push([l * n + i, l * n + j, (l + 1) * n + j, (l + 1) * n + i]);
    }
  }
  const fan = (layer: number, up: boolean) => {
    const pts = layers[layer]!;
    const c = vertices.length / 3;
    const cx = pts.reduce((s, p) => s + p[0], 0) / n;
    const cy = pts.reduce((s, p) => s + p[1], 0) / n;
    const cz = pts.reduce((s, p) => s + p[2], 0) / n;
    vertices.push(cx, cy, cz);
    for (let i = 0; i < n; i++) {
      const a = layer * n + i;
      const b = layer * n + ((i + 1) % n);
      faces.push(up ? [c, a, b] : [c, b, a]);
    }
  };
  if (capBottom) fan(0, false);
  if (capTop) fan(layers.length - 1, true);
  return { vertices, faces };
}

/** A ring-shaped solid: an outer outline r(theta) and an inner circle, from z0 to z1. */
function ring(
  outer: (t: number) => number,
  inner: number,
  z0: number,
  z1: number,
  samples: number,
): IndexedMesh {
  const vertices: number[] = [];
  const faces: number[][] = [];
  // Layers: outer bottom, outer top, inner top, inner bottom; quads between consecutive layers.
  const layers: Array<[(t: number) => number, number]> = [
    [outer, z0],
    [outer, z1],
    [() => inner, z1],
    [() => inner, z0],
  ];
  for (const [r, z] of layers) {
    for (let s = 0; s < samples; s++) {
      const t = (2 * Math.PI * s) / samples;
      vertices.push(r(t) * Math.cos(t), r(t) * Math.sin(t), z);
    }
  }
  for (let l = 0; l < 4; l++) {
    const m = (l + 1) % 4;
    for (let s = 0; s < samples; s++) {
      const u = (s + 1) % samples;
      faces.push([l * samples + s, l * samples + u, m * samples + u, m * samples + s]);
    }
  }
  return { vertices, faces };
}

/** A tube of radius a along a closed curve, with rotation-minimising frames. */
function tube(
  curve: (t: number) => [number, number, number],
  a: number,
  steps: number,
  sides: number,
): IndexedMesh {
  const pts = Array.from({ length: steps }, (_, k) => curve(k / steps));
  const tangent = (k: number) => {
    const p = pts[(k + 1) % steps]!;
    const q = pts[(k + steps - 1) % steps]!;
    return normalize([p[0] - q[0], p[1] - q[1], p[2] - q[2]]);
  };
  let t0 = tangent(0);
  let normal = normalize(cross(t0, Math.abs(t0[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]));
  const frames: Array<[number[], number[]]> = [];
  for (let k = 0; k < steps; k++) {
    const t = tangent(k);
    // Project the previous normal onto the new normal plane (double reflection, simplified).
    const d = dot(normal, t);
    normal = normalize([normal[0]! - d * t[0]!, normal[1]! - d * t[1]!, normal[2]! - d * t[2]!]);
    frames.push([normal, cross(t, normal)]);
    t0 = t;
  }
  // Close the twist: spread the mismatch between the last and first frame along the tube.
  const [n0, b0] = frames[0]!;
  const [nl] = frames[steps - 1]!;
  const twist = Math.atan2(dot(nl, b0), dot(nl, n0));
  const vertices: number[] = [];
  for (let k = 0; k < steps; k++) {
    const [n, b] = frames[k]!;
    const p = pts[k]!;
    const phase = (-twist * k) / steps;
    for (let s = 0; s < sides; s++) {
      const ang = (2 * Math.PI * s) / sides + phase;
      const c = Math.cos(ang) * a;
      const si = Math.sin(ang) * a;
      vertices.push(
        p[0] + n[0]! * c + b[0]! * si,
        p[1] + n[1]! * c + b[1]! * si,
        p[2] + n[2]! * c + b[2]! * si,
      );
    }
  }
  const faces: number[][] = [];
  for (let k = 0; k < steps; k++) {
    const l = (k + 1) % steps;
    for (let s = 0; s < sides; s++) {
      const u = (s + 1) % sides;
      faces.push([k * sides + s, l * sides + s, l * sides + u, k * sides + u]);
    }
  }
  return { vertices, faces };
}

function cross(a: number[], b: number[]): number[] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}
function dot(a: number[], b: number[]): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}
function normalize(a: number[]): [number, number, number] {
  const l = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  return [a[0]! / l, a[1]! / l, a[2]! / l];
}

/** A smooth step from 0 to 1 between a and b. */
function smooth(a: number, b: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
}

// --- The six models -------------------------------------------------------------------------

function vase(): IndexedMesh {
  const outer = (z: number) =>
    30 + 14 * Math.sin((z / 120) * Math.PI * 1.15 + 0.2) - 9 * smooth(80, 120, z) + 5 * smooth(108, 125, z);
  const profile: Array<[number, number]> = [[0, 0]];
  const height = 125;
  const wall = 2.4;
  profile.push([outer(0) - 2, 0]);
  for (let z = 1; z <= height; z += 1) profile.push([outer(z), z]);
  // Rolled rim, then back down the inside.
  profile.push([outer(height) - wall / 2, height + 1.2]);
  for (let z = height; z >= 6; z -= 1) profile.push([outer(z) - wall, z]);
  profile.push([0, 6]);
  return revolve(profile, 180);
}

function gear(): IndexedMesh {
  const teeth = 22;
  const root = 36;
  const tip = 42;
  const outline = (t: number) => {
    const u = ((t * teeth) / (2 * Math.PI)) % 1;
    // Trapezoid tooth with rounded flanks.
    const up = smooth(0.05, 0.3, u);
    const down = 1 - smooth(0.55, 0.8, u);
    return root + (tip - root) * Math.min(up, down);
  };
  const body = ring(outline, 10, 0, 12, teeth * 24);
  const hub = ring(() => 17, 10, 11.9, 18, 96);
  // Six lightening holes are hard to cut in a mesh; a raised web ring reads well instead.
  const web = ring(() => 30, 26, 11.9, 14, 120);
  return merged(body, hub, web);
}

function tower(): IndexedMesh {
  const layers: Array<Array<[number, number, number]>> = [];
  const sides = 6;
  const samples = 96;
  const height = 130;
  for (let l = 0; l <= 130; l++) {
    const z = (l / 130) * height;
    const twist = (z / height) * Math.PI * 0.9;
    const scale = 1 - 0.35 * (z / height) + 0.08 * Math.sin((z / height) * Math.PI);
    const layer: Array<[number, number, number]> = [];
    for (let s = 0; s < samples; s++) {
      const t = (2 * Math.PI * s) / samples;
      // A hexagon with softly rounded corners.
      const sector = (2 * Math.PI) / sides;
      const local = (((t % sector) + sector) % sector) - sector / 2;
      const r = (32 * Math.cos(Math.PI / sides)) / Math.cos(local * 0.92);
      layer.push([r * scale * Math.cos(t + twist), r * scale * Math.sin(t + twist), z]);
    }
    layers.push(layer);
  }
  return loft(layers);
}

function knot(): IndexedMesh {
  const p = 2;
  const q = 3;
  return tube(
    (u) => {
      const t = 2 * Math.PI * u;
      const r = 30 + 13 * Math.cos(q * t);
      return [r * Math.cos(p * t), r * Math.sin(p * t), 13 * Math.sin(q * t) + 20];
    },
    7.5,
    720,
    80,
  );
}

function rook(): IndexedMesh {
  const profile: Array<[number, number]> = [[0, 0]];
  const points: Array<[number, number]> = [
    [26, 0],
    [26.5, 2],
    [26, 5],
    [23, 6.5],
    [22, 8],
    [23.5, 10],
    [22, 12],
  ];
  profile.push(...points);
  for (let z = 13; z <= 62; z++) {
    const waist =
      15 + 3.5 * Math.cos(((z - 13) / 49) * Math.PI) ** 2 - 1.5 * Math.sin(((z - 13) / 49) * Math.PI);
    profile.push([waist + 1.5 * smooth(52, 62, z), z]);
  }
  profile.push([19.5, 63], [21, 65], [21, 76], [14, 76], [14, 72], [0, 72]);
  const body = revolve(profile, 160);
  const merlons: IndexedMesh[] = [];
  const count = 6;
  for (let k = 0; k < count; k++) {
    const a0 = ((k + 0.2) / count) * 2 * Math.PI;
    const a1 = ((k + 0.8) / count) * 2 * Math.PI;
    const layers: Array<Array<[number, number, number]>> = [];
    for (const z of [75.5, 86]) {
      const layer: Array<[number, number, number]> = [];
      for (let s = 0; s <= 16; s++) {
        const a = a0 + ((a1 - a0) * s) / 16;
        layer.push([21 * Math.cos(a), 21 * Math.sin(a), z]);
      }
      for (let s = 16; s >= 0; s--) {
        const a = a0 + ((a1 - a0) * s) / 16;
        layer.push([14 * Math.cos(a), 14 * Math.sin(a), z]);
      }
      layers.push(layer);
    }
    merlons.push(loft(layers));
  }
  return merged(body, ...merlons);
}

function tray(): IndexedMesh {
  const cell = 14;
  const wall = 1.8;
  const parts: IndexedMesh[] = [];
  const hex = (cx: number, cy: number, r: number, z0: number, z1: number, turn = Math.PI / 6) =>
    [z0, z1].map((z) =>
      Array.from({ length: 6 }, (_, k): [number, number, number] => {
        const t = (Math.PI / 3) * k + turn;
        return [cx + r * Math.cos(t), cy + r * Math.sin(t), z];
      }),
    );
  const rings = 2;
  // The base: a flat-topped hexagonal plate under the pointy-topped cells.
  parts.push(loft(hex(0, 0, rings * cell * Math.sqrt(3) + cell * 1.1, 0, 3, 0)));
  // Cells on a hex grid, each a hexagonal ring wall.
  for (let q = -rings; q <= rings; q++) {
    for (let r = Math.max(-rings, -q - rings); r <= Math.min(rings, -q + rings); r++) {
      const cx = cell * Math.sqrt(3) * (q + r / 2);
      const cy = cell * 1.5 * r;
      const outer = hex(cx, cy, cell, 2.9, 12);
      const inner = hex(cx, cy, cell - wall, 2.9, 12);
      parts.push(hexRing(outer, inner));
    }
  }
  return merged(...parts);
}

/** A closed hexagonal wall between an outer and an inner hexagon prism (bottom, top layers). */
function hexRing(
  outer: Array<Array<[number, number, number]>>,
  inner: Array<Array<[number, number, number]>>,
): IndexedMesh {
  const layers = [outer[0]!, outer[1]!, inner[1]!, inner[0]!];
  const vertices: number[] = [];
  for (const layer of layers) for (const [x, y, z] of layer) vertices.push(x, y, z);
  const faces: number[][] = [];
  for (let l = 0; l < 4; l++) {
    const m = (l + 1) % 4;
    for (let s = 0; s < 6; s++) {
      const u = (s + 1) % 6;
      faces.push([l * 6 + s, l * 6 + u, m * 6 + u, m * 6 + s]);
    }
  }
  return { vertices, faces };
}

const MODELS: Array<{ file: string; mesh: () => IndexedMesh; color: string; view: PreviewOptions }> = [
  { file: '01-vase.png', mesh: vase, color: '#007bff', view: { azimuth: 30, elevation: 18 } },
  { file: '02-gear.png', mesh: gear, color: '#dc3545', view: { azimuth: 25, elevation: 42 } },
  { file: '03-tower.png', mesh: tower, color: '#28a745', view: { azimuth: 35, elevation: 20 } },
  { file: '04-knot.png', mesh: knot, color: '#ffc107', view: { azimuth: 20, elevation: 38 } },
  { file: '05-rook.png', mesh: rook, color: '#343a40', view: { azimuth: 30, elevation: 20 } },
  { file: '06-tray.png', mesh: tray, color: '#6c757d', view: { azimuth: 15, elevation: 52 } },
];

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const out = path.join(root, 'src/client/public/gallery');
  fs.mkdirSync(out, { recursive: true });
  for (const model of MODELS) {
    const tris = triangles(model.mesh());
    const rgba = renderPreview(tris, {
      width: WIDTH,
      height: HEIGHT,
      color: model.color,
      background: BACKGROUND,
      shadow: true,
      supersample: 3,
      margin: 0.08,
      ...model.view,
    });
    const png = encodePng(rgba, WIDTH, HEIGHT);
    fs.writeFileSync(path.join(out, model.file), png);
    console.log(`${model.file}: ${tris.length / 9} triangles, ${(png.length / 1024).toFixed(0)} KB`);
  }
}

main();
