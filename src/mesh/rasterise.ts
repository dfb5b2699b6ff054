// A small software renderer for model previews: orthographic view from the front-right and above
// (isometric by default), a z-buffer, flat shading (Lambert from the viewer's upper left, a sky /
// ground ambient and a soft highlight), 2 x 2 supersampling, and an optional soft ground shadow.
// Vertices are snapped to 1/16 of a sample and edge functions are evaluated exactly, so triangles
// that share an edge never leave a gap between them: meshes render without pinholes.

import type { BoundingBox, TriangleSink } from './types.ts';

export interface PreviewOptions {
  /** Output size in pixels (default 512 x 512). */
  width?: number;
  height?: number;
  /** Model colour, '#rrggbb' (default '#cccccc'). */
  color?: string;
  /** '#rrggbb' for a solid background, [top, bottom] for a vertical gradient; omitted: transparent. */
  background?: string | readonly [string, string];
  /** Samples per pixel along each axis: 1 (none) to 4 (default 2). */
  supersample?: number;
  /** A soft shadow on the ground below the model (needs a background). */
  shadow?: boolean;
  /** Camera around the vertical axis, degrees from the front towards the right (default 45). */
  azimuth?: number;
  /** Camera height above the ground, degrees (default 35.26: isometric). */
  elevation?: number;
  /** Empty border, as a fraction of the smaller side (default 0.06). */
  margin?: number;
  /**
   * How many samples' worth of triangle boxes may be visited, as a multiple of the frame's samples
   * (default 64: ~70 ms here). Past it, triangles bigger than a few samples are left out, so a model of
   * huge overlapping triangles cannot cost seconds per triangle; real models stay far below it.
   */
  workBudgetFrames?: number;
}

/** Triangles whose box holds at most this many samples are always drawn: cheap, and most of a mesh. */
const ALWAYS_DRAWN_SAMPLES = 256;

export const DEFAULT_PREVIEW_SIZE = 512;

interface Camera {
  // Screen right, screen up and towards-the-viewer axes, in model coordinates.
  rx: number;
  ry: number;
  rz: number;
  ux: number;
  uy: number;
  uz: number;
  fx: number;
  fy: number;
  fz: number;
}

function camera(azimuthDeg: number, elevationDeg: number): Camera {
  const az = (azimuthDeg * Math.PI) / 180;
  const el = (elevationDeg * Math.PI) / 180;
  const fx = Math.sin(az) * Math.cos(el);
  const fy = -Math.cos(az) * Math.cos(el);
  const fz = Math.sin(el);
  // right = -f x z_up, up = right x -f.
  let rx = -fy;
  let ry = fx;
  const rLen = Math.hypot(rx, ry) || 1;
  rx /= rLen;
  ry /= rLen;
  const rz = 0;
  const ux = -(ry * fz - rz * fy);
  const uy = -(rz * fx - rx * fz);
  const uz = -(rx * fy - ry * fx);
  return { rx, ry, rz, ux, uy, uz, fx, fy, fz };
}

/** Light from the viewer's upper left, in view space (x right, y up, z towards the viewer). */
const LIGHT = normalize3(-0.55, 0.7, 0.55);
const HALF = normalize3(LIGHT[0], LIGHT[1], LIGHT[2] + 1);

function normalize3(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z) || 1;
  return [x / l, y / l, z / l];
}

export function parseHexColor(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const v = Number.parseInt(m[1]!, 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** An sRGB byte (0-255) as linear light (0-1). */
export const toLinear = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
/** Linear light (clamped to 0-1) as an sRGB byte. */
export const toSrgbByte = (l: number) => {
  const c = l <= 0 ? 0 : l >= 1 ? 1 : l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055;
  return Math.round(c * 255);
};

/** Fixed-point subdivisions of a sample. */
const SUB = 16;

/** Draws triangles into a supersampled z-buffer; `image()` shades and downsamples. */
export class Rasteriser implements TriangleSink {
  readonly width: number;
  readonly height: number;
  private readonly ss: number;
  private readonly sw: number;
  private readonly sh: number;
  private readonly depth: Float32Array;
  private readonly diffuse: Float32Array;
  private readonly highlight: Float32Array;
  private readonly cam: Camera;
  private scale = 1;
  private offsetX = 0;
  private offsetY = 0;
  private readonly options: PreviewOptions;
  private shadowMask: Float32Array | null = null;
  private groundZ = 0;
  private readonly shadowDir: [number, number, number];
  /** Samples visited so far (box areas), against `budget`. */
  private work = 0;
  private readonly budget: number;
  /** Triangles left out because the work budget was spent. */
  skipped = 0;

  constructor(options: PreviewOptions = {}) {
    this.options = options;
    this.width = Math.max(1, Math.round(options.width ?? DEFAULT_PREVIEW_SIZE));
    this.height = Math.max(1, Math.round(options.height ?? DEFAULT_PREVIEW_SIZE));
    this.ss = Math.min(4, Math.max(1, Math.round(options.supersample ?? 2)));
    this.sw = this.width * this.ss;
    this.sh = this.height * this.ss;
    this.budget = (options.workBudgetFrames ?? 64) * this.sw * this.sh;
    this.depth = new Float32Array(this.sw * this.sh).fill(-Infinity);
    this.diffuse = new Float32Array(this.sw * this.sh);
    this.highlight = new Float32Array(this.sw * this.sh);
    this.cam = camera(options.azimuth ?? 45, options.elevation ?? 35.264);
    const c = this.cam;
    // The light in model space, and the direction shadows fall along (down and away from it).
    const lx = LIGHT[0] * c.rx + LIGHT[1] * c.ux + LIGHT[2] * c.fx;
    const ly = LIGHT[0] * c.ry + LIGHT[1] * c.uy + LIGHT[2] * c.fy;
    const lz = LIGHT[0] * c.rz + LIGHT[1] * c.uz + LIGHT[2] * c.fz;
    this.shadowDir = [lx / Math.max(lz, 0.2), ly / Math.max(lz, 0.2), 1];
  }

  /** Frames the view on points (x, y, z triples): the model's vertices, or its box corners. */
  fit(points: ArrayLike<number>, groundZ: number): void {
    const c = this.cam;
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    const shadow = this.options.shadow === true;
    const [sx, sy] = this.shadowDir;
    for (let k = 0; k + 2 < points.length; k += 3) {
      let x = points[k]!;
      let y = points[k + 1]!;
      let z = points[k + 2]!;
      for (let pass = 0; pass < (shadow ? 2 : 1); pass++) {
        if (pass === 1) {
          // Where the point's shadow lands: keep a little of it in the frame.
          const h = (z - groundZ) * 0.5;
          x -= sx * h;
          y -= sy * h;
          z = groundZ;
        }
        const X = x * c.rx + y * c.ry + z * c.rz;
        const Y = x * c.ux + y * c.uy + z * c.uz;
        if (X < minX) minX = X;
        if (X > maxX) maxX = X;
        if (Y < minY) minY = Y;
        if (Y > maxY) maxY = Y;
      }
    }
    if (!(minX <= maxX)) {
      minX = maxX = minY = maxY = 0;
    }
    const margin = this.options.margin ?? 0.06;
    const m = margin * Math.min(this.sw, this.sh);
    const spanX = Math.max(maxX - minX, 1e-9);
    const spanY = Math.max(maxY - minY, 1e-9);
    this.scale = Math.min((this.sw - 2 * m) / spanX, (this.sh - 2 * m) / spanY);
    this.offsetX = this.sw / 2 - ((minX + maxX) / 2) * this.scale;
    this.offsetY = this.sh / 2 + ((minY + maxY) / 2) * this.scale;
    this.groundZ = groundZ;
  }

  /** Frames the view on a bounding box (for a streamed second pass). */
  fitBox(box: BoundingBox): void {
    const pts: number[] = [];
    for (let k = 0; k < 8; k++) {
      pts.push(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
    }
    this.fit(pts, box.min.z);
  }

  triangles(p: Float64Array | Float32Array, _ids: Int32Array | null, n: number): void {
    const c = this.cam;
    const s = this.scale;
    const ox = this.offsetX;
    const oy = this.offsetY;
    const shadow = this.options.shadow === true;
    for (let k = 0, end = 9 * n; k < end; k += 9) {
      const ax = p[k]!;
      const ay = p[k + 1]!;
      const az = p[k + 2]!;
      const bx = p[k + 3]!;
      const by = p[k + 4]!;
      const bz = p[k + 5]!;
      const cx = p[k + 6]!;
      const cy = p[k + 7]!;
      const cz = p[k + 8]!;
      // Face normal in view space, turned towards the viewer (two-sided: inverted models too).
      const ux = bx - ax;
      const uy = by - ay;
      const uz = bz - az;
      const vx = cx - ax;
      const vy = cy - ay;
      const vz = cz - az;
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      let nr = nx * c.rx + ny * c.ry + nz * c.rz;
      let nu = nx * c.ux + ny * c.uy + nz * c.uz;
      let nf = nx * c.fx + ny * c.fy + nz * c.fz;
      const len = Math.sqrt(nr * nr + nu * nu + nf * nf);
      if (len === 0) continue;
      const flip = nf < 0 ? -1 / len : 1 / len;
      nr *= flip;
      nu *= flip;
      nf *= flip;
      const lambert = Math.max(0, nr * LIGHT[0] + nu * LIGHT[1] + nf * LIGHT[2]);
      // Sky above, ground bounce below: the shadowed side keeps its shape.
      const ambient = 0.2 + 0.12 * (nu * 0.5 + 0.5);
      const light = ambient + 0.78 * lambert;
      const h = Math.max(0, nr * HALF[0] + nu * HALF[1] + nf * HALF[2]);
      const h2 = h * h;
      const h4 = h2 * h2;
      const spec = 0.22 * h4 * h4 * h4 * h4; // ~ h^16
      this.fill(
        ox + (ax * c.rx + ay * c.ry + az * c.rz) * s,
        oy - (ax * c.ux + ay * c.uy + az * c.uz) * s,
        ax * c.fx + ay * c.fy + az * c.fz,
        ox + (bx * c.rx + by * c.ry + bz * c.rz) * s,
        oy - (bx * c.ux + by * c.uy + bz * c.uz) * s,
        bx * c.fx + by * c.fy + bz * c.fz,
        ox + (cx * c.rx + cy * c.ry + cz * c.rz) * s,
        oy - (cx * c.ux + cy * c.uy + cz * c.uz) * s,
        cx * c.fx + cy * c.fy + cz * c.fz,
        light,
        spec,
      );
      if (shadow) this.shadowTriangle(ax, ay, az, bx, by, bz, cx, cy, cz);
    }
  }

  /** Counts a triangle's box against the budget; false (and left out) when a big one would exceed it. */
  private spend(samples: number): boolean {
    if (samples > ALWAYS_DRAWN_SAMPLES && this.work + samples > this.budget) {
      this.skipped++;
      return false;
    }
    this.work += samples;
    return true;
  }

  /** Fills one triangle given in sample coordinates, with its shading. */
  private fill(
    x0: number,
    y0: number,
    z0: number,
    x1: number,
    y1: number,
    z1: number,
    x2: number,
    y2: number,
    z2: number,
    light: number,
    spec: number,
  ): void {
    let X0 = Math.round(x0 * SUB);
    let Y0 = Math.round(y0 * SUB);
    let X1 = Math.round(x1 * SUB);
    let Y1 = Math.round(y1 * SUB);
    const X2 = Math.round(x2 * SUB);
    const Y2 = Math.round(y2 * SUB);
    let Z0 = z0;
    let Z1 = z1;
    let area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
    if (area === 0) return;
    if (area < 0) {
      // Make the winding positive: swap vertices 0 and 1.
      let t = X0;
      X0 = X1;
      X1 = t;
      t = Y0;
      Y0 = Y1;
      Y1 = t;
      t = Z0;
      Z0 = Z1;
      Z1 = t;
      area = -area;
    }
    const w = this.sw;
    // The sample centres inside the triangle's box: none for most triangles of a detailed model, which are
    // smaller than a sample and cost nothing more.
    const minPx = Math.max(0, Math.ceil(Math.min(X0, X1, X2) / SUB - 0.5));
    const maxPx = Math.min(w - 1, Math.floor(Math.max(X0, X1, X2) / SUB - 0.5));
    const minPy = Math.max(0, Math.ceil(Math.min(Y0, Y1, Y2) / SUB - 0.5));
    const maxPy = Math.min(this.sh - 1, Math.floor(Math.max(Y0, Y1, Y2) / SUB - 0.5));
    if (minPx > maxPx || minPy > maxPy) return;
    if (!this.spend((maxPx - minPx + 1) * (maxPy - minPy + 1))) return;
    // Edge functions at sample centres ((p + 1/2) * SUB); all integers, so exact in doubles.
    const A0 = -(Y2 - Y1) * SUB;
    const A1 = -(Y0 - Y2) * SUB;
    const A2 = -(Y1 - Y0) * SUB;
    const half = SUB / 2;
    const depth = this.depth;
    const diffuse = this.diffuse;
    const highlight = this.highlight;
    const inv = 1 / area;
    for (let py = minPy; py <= maxPy; py++) {
      const cyf = py * SUB + half;
      const cx0 = minPx * SUB + half;
      let e0 = (X2 - X1) * (cyf - Y1) - (Y2 - Y1) * (cx0 - X1);
      let e1 = (X0 - X2) * (cyf - Y2) - (Y0 - Y2) * (cx0 - X2);
      let e2 = (X1 - X0) * (cyf - Y0) - (Y1 - Y0) * (cx0 - X0);
      let at = py * w + minPx;
      for (let px = minPx; px <= maxPx; px++, at++) {
        if (e0 >= 0 && e1 >= 0 && e2 >= 0) {
          const z = (e0 * Z0 + e1 * Z1 + e2 * z2) * inv;
          if (z > depth[at]!) {
            depth[at] = z;
            diffuse[at] = light;
            highlight[at] = spec;
          }
        }
        e0 += A0;
        e1 += A1;
        e2 += A2;
      }
    }
  }

  private shadowTriangle(
    ax: number,
    ay: number,
    az: number,
    bx: number,
    by: number,
    bz: number,
    cx: number,
    cy: number,
    cz: number,
  ): void {
    if (this.shadowMask === null) this.shadowMask = new Float32Array(this.sw * this.sh);
    const c = this.cam;
    const s = this.scale;
    const g = this.groundZ;
    const [dx, dy] = this.shadowDir;
    // Each vertex dropped onto the ground, a little along the light.
    const pts = [ax, ay, az, bx, by, bz, cx, cy, cz];
    const screen: number[] = [];
    for (let k = 0; k < 9; k += 3) {
      const h = (pts[k + 2]! - g) * 0.5;
      const x = pts[k]! - dx * h;
      const y = pts[k + 1]! - dy * h;
      screen.push(
        this.offsetX + (x * c.rx + y * c.ry + g * c.rz) * s,
        this.offsetY - (x * c.ux + y * c.uy + g * c.uz) * s,
      );
    }
    const xs = [screen[0]!, screen[2]!, screen[4]!];
    const ys = [screen[1]!, screen[3]!, screen[5]!];
    const box =
      (Math.min(this.sw, Math.max(...xs)) - Math.max(0, Math.min(...xs)) + 1) *
      (Math.min(this.sh, Math.max(...ys)) - Math.max(0, Math.min(...ys)) + 1);
    if (box > 0 && !this.spend(box)) return;
    coverTriangle(this.shadowMask, this.sw, this.sh, screen);
  }

  /** Shades, composes over the background and downsamples: RGBA, width x height. */
  image(): Uint8Array {
    const [r, g, b] = parseHexColor(this.options.color ?? '#cccccc').map(toLinear) as [
      number,
      number,
      number,
    ];
    const bg = this.options.background;
    const top = bg === undefined ? null : parseHexColor(typeof bg === 'string' ? bg : bg[0]).map(toLinear);
    const bottom = bg === undefined ? null : parseHexColor(typeof bg === 'string' ? bg : bg[1]).map(toLinear);
    const mask = this.shadowMask
      ? blur(this.shadowMask, this.sw, this.sh, Math.max(2, Math.round(this.sw / 120)))
      : null;
    const { width, height, ss, sw } = this;
    const out = new Uint8Array(width * height * 4);
    const samples = ss * ss;
    for (let y = 0; y < height; y++) {
      const t = height > 1 ? y / (height - 1) : 0;
      const backR = top && bottom ? top[0]! + (bottom[0]! - top[0]!) * t : 0;
      const backG = top && bottom ? top[1]! + (bottom[1]! - top[1]!) * t : 0;
      const backB = top && bottom ? top[2]! + (bottom[2]! - top[2]!) * t : 0;
      for (let x = 0; x < width; x++) {
        let sr = 0;
        let sg = 0;
        let sb = 0;
        let covered = 0;
        let shade = 0;
        for (let j = 0; j < ss; j++) {
          for (let i = 0; i < ss; i++) {
            const at = (y * ss + j) * sw + x * ss + i;
            if (this.depth[at]! > -Infinity) {
              const d = this.diffuse[at]!;
              const hl = this.highlight[at]!;
              sr += r * d + hl;
              sg += g * d + hl;
              sb += b * d + hl;
              covered++;
            } else if (mask) {
              shade += mask[at]!;
            }
          }
        }
        const o = (y * width + x) * 4;
        if (top) {
          // Opaque: the background (darkened by the shadow) fills the uncovered samples.
          const uncovered = samples - covered;
          const dark = uncovered > 0 ? 1 - 0.42 * Math.min(1, shade / uncovered) : 1;
          out[o] = toSrgbByte((sr + uncovered * backR * dark) / samples);
          out[o + 1] = toSrgbByte((sg + uncovered * backG * dark) / samples);
          out[o + 2] = toSrgbByte((sb + uncovered * backB * dark) / samples);
          out[o + 3] = 255;
        } else if (covered > 0) {
          out[o] = toSrgbByte(sr / covered);
          out[o + 1] = toSrgbByte(sg / covered);
          out[o + 2] = toSrgbByte(sb / covered);
          out[o + 3] = Math.round((255 * covered) / samples);
        }
      }
    }
    return out;
  }
}

/** Marks the samples a 2D triangle (sample coordinates) covers with 1. */
function coverTriangle(mask: Float32Array, w: number, h: number, pts: number[]): void {
  const X0 = Math.round(pts[0]! * SUB);
  const Y0 = Math.round(pts[1]! * SUB);
  let X1 = Math.round(pts[2]! * SUB);
  let Y1 = Math.round(pts[3]! * SUB);
  let X2 = Math.round(pts[4]! * SUB);
  let Y2 = Math.round(pts[5]! * SUB);
  const area = (X1 - X0) * (Y2 - Y0) - (Y1 - Y0) * (X2 - X0);
  if (area === 0) return;
  if (area < 0) {
    [X1, X2] = [X2, X1];
    [Y1, Y2] = [Y2, Y1];
  }
  const minPx = Math.max(0, Math.floor(Math.min(X0, X1, X2) / SUB - 0.5));
  const maxPx = Math.min(w - 1, Math.ceil(Math.max(X0, X1, X2) / SUB - 0.5));
  const minPy = Math.max(0, Math.floor(Math.min(Y0, Y1, Y2) / SUB - 0.5));
  const maxPy = Math.min(h - 1, Math.ceil(Math.max(Y0, Y1, Y2) / SUB - 0.5));
  const half = SUB / 2;
  for (let py = minPy; py <= maxPy; py++) {
    const cy = py * SUB + half;
    for (let px = minPx; px <= maxPx; px++) {
      const cx = px * SUB + half;
      if (
        (X2 - X1) * (cy - Y1) - (Y2 - Y1) * (cx - X1) >= 0 &&
        (X0 - X2) * (cy - Y2) - (Y0 - Y2) * (cx - X2) >= 0 &&
        (X1 - X0) * (cy - Y0) - (Y1 - Y0) * (cx - X0) >= 0
      ) {
        mask[py * w + px] = 1;
      }
    }
  }
}

/** Three box blurs (close to a Gaussian) of radius r. */
function blur(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const a = Float32Array.from(src);
  const b = new Float32Array(a.length);
  for (let pass = 0; pass < 3; pass++) {
    boxBlur(a, b, w, h, r, true);
    boxBlur(b, a, w, h, r, false);
  }
  return a;
}

function boxBlur(
  src: Float32Array,
  dst: Float32Array,
  w: number,
  h: number,
  r: number,
  horizontal: boolean,
): void {
  const lines = horizontal ? h : w;
  const length = horizontal ? w : h;
  const step = horizontal ? 1 : w;
  const norm = 1 / (2 * r + 1);
  for (let l = 0; l < lines; l++) {
    const base = horizontal ? l * w : l;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += src[base + Math.min(length - 1, Math.max(0, k)) * step]!;
    for (let k = 0; k < length; k++) {
      dst[base + k * step] = sum * norm;
      const add = Math.min(length - 1, k + r + 1);
      const drop = Math.max(0, k - r);
      sum += src[base + add * step]! - src[base + drop * step]!;
    }
  }
}

/** Renders triangles held in memory (9 numbers each), framed on their own vertices. */
export function renderPreview(
  triangles: Float32Array | Float64Array,
  options: PreviewOptions = {},
): Uint8Array {
  const raster = new Rasteriser(options);
  let groundZ = Infinity;
  for (let k = 2; k < triangles.length; k += 3) if (triangles[k]! < groundZ) groundZ = triangles[k]!;
  raster.fit(triangles, Number.isFinite(groundZ) ? groundZ : 0);
  const batch = 4096;
  for (let t = 0; t * 9 < triangles.length; t += batch) {
    const n = Math.min(batch, triangles.length / 9 - t);
    raster.triangles(triangles.subarray(9 * t, 9 * (t + n)), null, n);
  }
  return raster.image();
}
