// Test models with known answers, written as binary STL, ASCII STL and OBJ bytes.
// Meshes are indexed polygons (quads stay quads, so OBJ output exercises fan triangulation).

export interface IndexedMesh {
  /** x, y, z per vertex. */
  vertices: number[];
  /** Polygons as 0-based vertex indices, counter-clockwise seen from outside. */
  faces: number[][];
}

/** A UV sphere: triangle fans at the poles, quads between. rings >= 2, segments >= 3. */
export function uvSphere(radius: number, segments: number, rings: number): IndexedMesh {
  const vertices: number[] = [0, 0, radius];
  for (let r = 1; r < rings; r++) {
    const phi = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const theta = (2 * Math.PI * s) / segments;
      vertices.push(
        radius * Math.sin(phi) * Math.cos(theta),
        radius * Math.sin(phi) * Math.sin(theta),
        radius * Math.cos(phi),
      );
    }
  }
  vertices.push(0, 0, -radius);
  const south = vertices.length / 3 - 1;
  const at = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments);
  const faces: number[][] = [];
  for (let s = 0; s < segments; s++) faces.push([0, at(1, s), at(1, s + 1)]);
  for (let r = 1; r < rings - 1; r++) {
    for (let s = 0; s < segments; s++) faces.push([at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s + 1)]);
  }
  for (let s = 0; s < segments; s++) faces.push([at(rings - 1, s), south, at(rings - 1, s + 1)]);
  return { vertices, faces };
}

/** A torus around the z axis: major radius R, tube radius r, all quads. */
export function torus(R: number, r: number, segments: number, sides: number): IndexedMesh {
  const vertices: number[] = [];
  for (let i = 0; i < segments; i++) {
    const u = (2 * Math.PI * i) / segments;
    for (let j = 0; j < sides; j++) {
      const v = (2 * Math.PI * j) / sides;
      const d = R + r * Math.cos(v);
      vertices.push(d * Math.cos(u), d * Math.sin(u), r * Math.sin(v));
    }
  }
  const at = (i: number, j: number) => (i % segments) * sides + (j % sides);
  const faces: number[][] = [];
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < sides; j++) faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
  }
  return { vertices, faces };
}

/** An axis-aligned box from origin (x0, y0, z0) of size (sx, sy, sz): 8 vertices, 6 quads. */
export function box(sx: number, sy: number, sz: number, x0 = 0, y0 = 0, z0 = 0): IndexedMesh {
  const vertices: number[] = [];
  for (let k = 0; k < 8; k++)
    vertices.push(x0 + (k & 1 ? sx : 0), y0 + (k & 2 ? sy : 0), z0 + (k & 4 ? sz : 0));
  const faces = [
    [0, 2, 3, 1], // bottom (z = z0), seen from below
    [4, 5, 7, 6], // top
    [0, 1, 5, 4], // front (y = y0)
    [2, 6, 7, 3], // back
    [0, 4, 6, 2], // left (x = x0)
    [1, 3, 7, 5], // right
  ];
  return { vertices, faces };
}

/** The same mesh without its face number `index` (a hole). */
export function withoutFace(mesh: IndexedMesh, index: number): IndexedMesh {
  return { vertices: mesh.vertices, faces: mesh.faces.filter((_, k) => k !== index) };
}

/** Every face wound the other way (normals pointing inwards). */
export function inverted(mesh: IndexedMesh): IndexedMesh {
  return { vertices: mesh.vertices, faces: mesh.faces.map((f) => [...f].reverse()) };
}

/** Moves every vertex by (dx, dy, dz). */
export function translated(mesh: IndexedMesh, dx: number, dy: number, dz: number): IndexedMesh {
  return { vertices: mesh.vertices.map((v, k) => v + [dx, dy, dz][k % 3]!), faces: mesh.faces };
}

/** Several meshes as one. */
export function merged(...meshes: IndexedMesh[]): IndexedMesh {
  const vertices: number[] = [];
  const faces: number[][] = [];
  for (const mesh of meshes) {
    const base = vertices.length / 3;
    // One at a time: a spread of a big mesh's coordinates would overflow the stack.
    for (const v of mesh.vertices) vertices.push(v);
    for (const f of mesh.faces) faces.push(f.map((i) => i + base));
  }
  return { vertices, faces };
}

/** Fan-triangulated triangle soup: 9 numbers per triangle. */
export function triangles(mesh: IndexedMesh): Float64Array {
  let count = 0;
  for (const f of mesh.faces) count += f.length - 2;
  const out = new Float64Array(9 * count);
  let k = 0;
  const v = mesh.vertices;
  for (const f of mesh.faces) {
    for (let t = 1; t + 1 < f.length; t++) {
      for (const i of [f[0]!, f[t]!, f[t + 1]!]) {
        out[k++] = v[3 * i]!;
        out[k++] = v[3 * i + 1]!;
        out[k++] = v[3 * i + 2]!;
      }
    }
  }
  return out;
}

/** Rounds every coordinate to float32, as a binary STL stores it. */
export function toFloat32(tris: Float64Array): Float64Array {
  return Float64Array.from(tris, (x) => Math.fround(x));
}

export function toBinaryStl(tris: ArrayLike<number>, header = 'binary STL from printshop tests'): Uint8Array {
  const count = tris.length / 9;
  const bytes = new Uint8Array(84 + 50 * count);
  for (let k = 0; k < Math.min(80, header.length); k++) bytes[k] = header.charCodeAt(k) & 0xff;
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) writeRecord(view, 84 + 50 * t, tris, 9 * t);
  return bytes;
}

function writeRecord(view: DataView, offset: number, tris: ArrayLike<number>, k: number): void {
  const n = normal(tris, k);
  view.setFloat32(offset, n[0], true);
  view.setFloat32(offset + 4, n[1], true);
  view.setFloat32(offset + 8, n[2], true);
  for (let c = 0; c < 9; c++) view.setFloat32(offset + 12 + 4 * c, tris[k + c]!, true);
}

function normal(t: ArrayLike<number>, k: number): [number, number, number] {
  const ux = t[k + 3]! - t[k]!;
  const uy = t[k + 4]! - t[k + 1]!;
  const uz = t[k + 5]! - t[k + 2]!;
  const vx = t[k + 6]! - t[k]!;
  const vy = t[k + 7]! - t[k + 1]!;
  const vz = t[k + 8]! - t[k + 2]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz) || 1;
  return [nx / len, ny / len, nz / len];
}

export interface AsciiStlOptions {
  name?: string;
  /** 'e' like C's %e (most exporters), 'g' shortest round-trip. */
  numbers?: 'e' | 'g';
  upperCase?: boolean;
  crlf?: boolean;
  indent?: string;
}

/** C-style %e: 1.234560e+01. */
export function formatE(x: number): string {
  const s = x.toExponential(6);
  const e = s.indexOf('e');
  const exponent = s.slice(e + 2);
  return `${s.slice(0, e + 2)}${exponent.length < 2 ? `0${exponent}` : exponent}`;
}

export function asciiStlText(tris: ArrayLike<number>, options: AsciiStlOptions = {}): string {
  const name = options.name ?? 'printshop';
  const nl = options.crlf ? '\r\n' : '\n';
  const ind = options.indent ?? '  ';
  const num = options.numbers === 'g' ? (x: number) => String(x) : formatE;
  const parts: string[] = [`solid ${name}${nl}`];
  for (let k = 0; k < tris.length; k += 9) {
    const n = normal(tris, k);
    parts.push(`facet normal ${num(n[0])} ${num(n[1])} ${num(n[2])}${nl}${ind}outer loop${nl}`);
    for (let c = 0; c < 9; c += 3) {
      parts.push(
        `${ind}${ind}vertex ${num(tris[k + c]!)} ${num(tris[k + c + 1]!)} ${num(tris[k + c + 2]!)}${nl}`,
      );
    }
    parts.push(`${ind}endloop${nl}endfacet${nl}`);
  }
  parts.push(`endsolid ${name}${nl}`);
  const text = parts.join('');
  return options.upperCase ? text.toUpperCase() : text;
}

export function toAsciiStl(tris: ArrayLike<number>, options: AsciiStlOptions = {}): Uint8Array {
  return new TextEncoder().encode(asciiStlText(tris, options));
}

export interface ObjOptions {
  /** Refer to vertices with negative (relative) indices. */
  negative?: boolean;
  /** Corner form: 'v', 'v/vt', 'v//vn' or 'v/vt/vn'. */
  corners?: 'v' | 'v/vt' | 'v//vn' | 'v/vt/vn';
  /** Split the faces into this many `o` objects. */
  objects?: number;
  /** Write a `w` component after x, y, z. */
  w?: boolean;
}

/** OBJ text. With negative indices every face follows the vertices it uses. */
export function objText(mesh: IndexedMesh, options: ObjOptions = {}): string {
  const lines: string[] = ['# printshop test model'];
  const v = mesh.vertices;
  const count = v.length / 3;
  const vertexLine = (i: number) =>
    `v ${v[3 * i]!} ${v[3 * i + 1]!} ${v[3 * i + 2]!}${options.w ? ' 1.0' : ''}`;
  const corners = options.corners ?? 'v';
  const corner = (i: number, written: number) => {
    const index = options.negative ? i - written : i + 1;
    if (corners === 'v/vt') return `${index}/1`;
    if (corners === 'v//vn') return `${index}//1`;
    if (corners === 'v/vt/vn') return `${index}/1/1`;
    return String(index);
  };
  if (corners !== 'v') lines.push('vt 0 0', 'vn 0 0 1');
  const objects = options.objects ?? 1;
  const perObject = Math.ceil(mesh.faces.length / objects);
  if (options.negative) {
    // Negative indices: write each face's vertices again right before it.
    let written = 0;
    mesh.faces.forEach((f, k) => {
      if (k % perObject === 0) lines.push(`o part${k / perObject}`);
      for (const i of f) lines.push(vertexLine(i));
      written += f.length;
      lines.push(`f ${f.map((_, c) => corner(written - f.length + c, written)).join(' ')}`);
    });
  } else {
    for (let i = 0; i < count; i++) lines.push(vertexLine(i));
    mesh.faces.forEach((f, k) => {
      if (k % perObject === 0) lines.push(`o part${k / perObject}`, 'usemtl default', 's 1');
      lines.push(`f ${f.map((i) => corner(i, 0)).join(' ')}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

export function toObj(mesh: IndexedMesh, options: ObjOptions = {}): Uint8Array {
  return new TextEncoder().encode(objText(mesh, options));
}

// Analytic answers (mm3, mm2).
export const sphereVolume = (r: number) => (4 / 3) * Math.PI * r ** 3;
export const sphereArea = (r: number) => 4 * Math.PI * r ** 2;
export const torusVolume = (R: number, r: number) => 2 * Math.PI ** 2 * R * r ** 2;
export const torusArea = (R: number, r: number) => 4 * Math.PI ** 2 * R * r;

/**
 * Big files for the benchmark, written piece by piece: a closed UV sphere sized so the file is just
 * under `bytes`. Each yields chunks of a few MB.
 */
/** One buffer of a generator's chunks (for sending a big generated file in one request). */
export function concatChunks(chunks: Iterable<Uint8Array>): Uint8Array {
  const list = [...chunks];
  const out = new Uint8Array(list.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of list) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

export function* bigBinaryStl(bytes: number): Generator<Uint8Array> {
  const segments = 1024;
  const triangleCount = Math.floor((bytes - 84) / 50);
  const rings = Math.floor(triangleCount / (2 * segments)) + 1;
  const mesh = uvSphere(40, segments, rings);
  const count = 2 * segments * (rings - 1);
  const head = new Uint8Array(84);
  head.set(new TextEncoder().encode('solid big sphere (a binary STL header may start with solid)'));
  new DataView(head.buffer).setUint32(80, count, true);
  yield head;
  for (const tris of triangleBlocks(mesh, 20000)) yield toBinaryStl(tris).subarray(84);
}

export function* bigAsciiStl(bytes: number): Generator<Uint8Array> {
  const segments = 256;
  const triangleCount = Math.floor(bytes / 262);
  const rings = Math.floor(triangleCount / (2 * segments)) + 1;
  const mesh = uvSphere(40, segments, rings);
  const encoder = new TextEncoder();
  yield encoder.encode('solid big_sphere\n');
  for (const tris of triangleBlocks(mesh, 4000)) {
    const text = asciiStlText(tris, { name: 'x' });
    // Drop the per-call solid / endsolid lines: one solid for the whole file.
    yield encoder.encode(text.slice(text.indexOf('\n') + 1, text.lastIndexOf('endsolid')));
  }
  yield encoder.encode('endsolid big_sphere\n');
}

export function* bigObj(bytes: number): Generator<Uint8Array> {
  const segments = 1024;
  const vertexCount = Math.floor(bytes / 80);
  const rings = Math.floor(vertexCount / segments) + 1;
  const mesh = uvSphere(40, segments, rings);
  const encoder = new TextEncoder();
  const v = mesh.vertices;
  const lines: string[] = ['# big sphere'];
  for (let i = 0; i < v.length / 3; i++) {
    lines.push(`v ${v[3 * i]!.toFixed(6)} ${v[3 * i + 1]!.toFixed(6)} ${v[3 * i + 2]!.toFixed(6)}`);
    if (lines.length === 50000) {
      yield encoder.encode(`${lines.join('\n')}\n`);
      lines.length = 0;
    }
  }
  for (const f of mesh.faces) {
    for (let t = 1; t + 1 < f.length; t++) {
      lines.push(`f ${f[0]! + 1} ${f[t]! + 1} ${f[t + 1]! + 1}`);
      if (lines.length === 50000) {
        yield encoder.encode(`${lines.join('\n')}\n`);
        lines.length = 0;
      }
    }
  }
  if (lines.length > 0) yield encoder.encode(`${lines.join('\n')}\n`);
}

function* triangleBlocks(mesh: IndexedMesh, facesPerBlock: number): Generator<Float64Array> {
  for (let k = 0; k < mesh.faces.length; k += facesPerBlock) {
    yield triangles({ vertices: mesh.vertices, faces: mesh.faces.slice(k, k + facesPerBlock) });
  }
}
