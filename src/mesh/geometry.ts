// Volume, area, bounding box and degenerate faces of a triangle stream.
// Volume: the signed tetrahedra (first vertex o, a, b, c) summed in double (the topology's shells
// then decide how each part counts, shells.ts; |sum| / 6 without them), so the answer depends neither
// on the winding (inverted normals) nor on where the model sits.
// det(a - o, b - o, c - o) is computed as (a - o) . ((b - a) x (c - a)), sharing the cross product
// with the area. Triangles are summed in runs of BATCH_TRIANGLES (counted from the file's start, so
// the chunking never changes a bit of the result) and the run sums are added with Neumaier's
// compensation, so a million triangles lose no accuracy. The box is tested with one branch per
// triangle (its 18 compares or-ed), taken only while the box still grows: a quarter faster than
// 18 separate updates.

import { badCoordinate, MAX_COORDINATE } from './coordinates.ts';
import { MeshError } from './errors.ts';
import { keepShape } from './keep-shapes.ts';
import { BATCH_TRIANGLES } from './types.ts';

const LIMIT = MAX_COORDINATE;

/**
 * More triangles are refused. A 64 MiB binary STL holds 1.3 million; only a crafted file (OBJ fans
 * of two bytes a triangle) comes near, and the watertight check keeps 24 bytes a triangle.
 */
export const MAX_TRIANGLES = 5_000_000;

export interface GeometryResult {
  triangles: number;
  degenerateFaces: number;
  /** Six times the signed volume (mm3). */
  volume6: number;
  /** Twice the area (mm2). */
  area2: number;
  min: [number, number, number];
  max: [number, number, number];
  /** The point the signed volume is summed around (the first vertex). */
  origin: [number, number, number];
}

const VOLUME = 0;
const VOLUME_C = 1;
const AREA = 2;
const AREA_C = 3;
const RUN_VOLUME = 4;
const RUN_AREA = 5;

export class Geometry {
  private count = 0;
  private degenerate = 0;
  // The sums and the origin are kept in Float64Arrays, not in fields made with 0 that later hold fractions:
  // such a field moves the object to a new map, which keep-shapes.ts could not keep.
  /** VOLUME, AREA and their compensations; RUN_VOLUME, RUN_AREA: the current run of BATCH_TRIANGLES. */
  private readonly sums = new Float64Array(6);
  /** The point the signed volume is summed around (the first vertex): x, y, z. */
  private readonly origin = new Float64Array(3);
  private minX = Infinity;
  private minY = Infinity;
  private minZ = Infinity;
  private maxX = -Infinity;
  private maxY = -Infinity;
  private maxZ = -Infinity;

  /**
   * Triangles as 9 numbers each (already checked against MAX_COORDINATE by the text parsers).
   * A call must not cross a multiple of BATCH_TRIANGLES (counted from the first triangle).
   */
  addTriangles(p: Float64Array, n: number): void {
    if (n === 0) return;
    if (this.count === 0) this.setOrigin(p[0]!, p[1]!, p[2]!);
    const origin = this.origin;
    const ox = origin[0]!;
    const oy = origin[1]!;
    const oz = origin[2]!;
    let minX = this.minX;
    let minY = this.minY;
    let minZ = this.minZ;
    let maxX = this.maxX;
    let maxY = this.maxY;
    let maxZ = this.maxZ;
    let volume = this.sums[RUN_VOLUME]!;
    let area = this.sums[RUN_AREA]!;
    let degenerate = 0;
    for (let k = 0, end = n * 9; k < end; k += 9) {
      const ax = p[k]!;
      const ay = p[k + 1]!;
      const az = p[k + 2]!;
      const bx = p[k + 3]!;
      const by = p[k + 4]!;
      const bz = p[k + 5]!;
      const cx = p[k + 6]!;
      const cy = p[k + 7]!;
      const cz = p[k + 8]!;
      if (
        ax < minX ||
        bx < minX ||
        cx < minX ||
        ax > maxX ||
        bx > maxX ||
        cx > maxX ||
        ay < minY ||
        by < minY ||
        cy < minY ||
        ay > maxY ||
        by > maxY ||
        cy > maxY ||
        az < minZ ||
        bz < minZ ||
        cz < minZ ||
        az > maxZ ||
        bz > maxZ ||
        cz > maxZ
      ) {
        if (ax < minX) minX = ax;
        if (ax > maxX) maxX = ax;
        if (bx < minX) minX = bx;
        if (bx > maxX) maxX = bx;
        if (cx < minX) minX = cx;
        if (cx > maxX) maxX = cx;
        if (ay < minY) minY = ay;
        if (ay > maxY) maxY = ay;
        if (by < minY) minY = by;
        if (by > maxY) maxY = by;
        if (cy < minY) minY = cy;
        if (cy > maxY) maxY = cy;
        if (az < minZ) minZ = az;
        if (az > maxZ) maxZ = az;
        if (bz < minZ) minZ = bz;
        if (bz > maxZ) maxZ = bz;
        if (cz < minZ) minZ = cz;
        if (cz > maxZ) maxZ = cz;
      }
      const ux = bx - ax;
      const uy = by - ay;
      const uz = bz - az;
      const vx = cx - ax;
      const vy = cy - ay;
      const vz = cz - az;
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      const nn = nx * nx + ny * ny + nz * nz;
      if (nn === 0) degenerate++;
      else area += Math.sqrt(nn);
      volume += (ax - ox) * nx + (ay - oy) * ny + (az - oz) * nz;
    }
    this.store(minX, minY, minZ, maxX, maxY, maxZ, volume, area, degenerate, n);
  }

  /**
   * The triangles of an indexed mesh (a placed 3MF object): corners tri[k], tri[k + second], tri[k + third]
   * of positions xyz (x, y, z at 3 * i, checked). The same sums as addTriangles on the same corners, in
   * calls cut at the multiples of BATCH_TRIANGLES, so not a bit differs.
   */
  addIndexed(xyz: Float64Array, tri: Int32Array, second: number, third: number): void {
    const n = tri.length / 3;
    for (let done = 0; done < n; ) {
      const run = Math.min(n - done, BATCH_TRIANGLES - (this.count % BATCH_TRIANGLES));
      this.indexedRun(xyz, tri, 3 * done, run, second, third);
      done += run;
    }
  }

  private indexedRun(
    xyz: Float64Array,
    tri: Int32Array,
    from: number,
    n: number,
    second: number,
    third: number,
  ) {
    if (n === 0) return;
    if (this.count === 0) {
      const o = 3 * tri[from]!;
      this.setOrigin(xyz[o]!, xyz[o + 1]!, xyz[o + 2]!);
    }
    const origin = this.origin;
    const ox = origin[0]!;
    const oy = origin[1]!;
    const oz = origin[2]!;
    let minX = this.minX;
    let minY = this.minY;
    let minZ = this.minZ;
    let maxX = this.maxX;
    let maxY = this.maxY;
    let maxZ = this.maxZ;
    let volume = this.sums[RUN_VOLUME]!;
    let area = this.sums[RUN_AREA]!;
    let degenerate = 0;
    for (let k = from, end = from + 3 * n; k < end; k += 3) {
      const a = 3 * tri[k]!;
      const b = 3 * tri[k + second]!;
      const c = 3 * tri[k + third]!;
      const ax = xyz[a]!;
      const ay = xyz[a + 1]!;
      const az = xyz[a + 2]!;
      const bx = xyz[b]!;
      const by = xyz[b + 1]!;
      const bz = xyz[b + 2]!;
      const cx = xyz[c]!;
      const cy = xyz[c + 1]!;
      const cz = xyz[c + 2]!;
      if (
        ax < minX ||
        bx < minX ||
        cx < minX ||
        ax > maxX ||
        bx > maxX ||
        cx > maxX ||
        ay < minY ||
        by < minY ||
        cy < minY ||
        ay > maxY ||
        by > maxY ||
        cy > maxY ||
        az < minZ ||
        bz < minZ ||
        cz < minZ ||
        az > maxZ ||
        bz > maxZ ||
        cz > maxZ
      ) {
        if (ax < minX) minX = ax;
        if (ax > maxX) maxX = ax;
        if (bx < minX) minX = bx;
        if (bx > maxX) maxX = bx;
        if (cx < minX) minX = cx;
        if (cx > maxX) maxX = cx;
        if (ay < minY) minY = ay;
        if (ay > maxY) maxY = ay;
        if (by < minY) minY = by;
        if (by > maxY) maxY = by;
        if (cy < minY) minY = cy;
        if (cy > maxY) maxY = cy;
        if (az < minZ) minZ = az;
        if (az > maxZ) maxZ = az;
        if (bz < minZ) minZ = bz;
        if (bz > maxZ) maxZ = bz;
        if (cz < minZ) minZ = cz;
        if (cz > maxZ) maxZ = cz;
      }
      const ux = bx - ax;
      const uy = by - ay;
      const uz = bz - az;
      const vx = cx - ax;
      const vy = cy - ay;
      const vz = cz - az;
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      const nn = nx * nx + ny * ny + nz * nz;
      if (nn === 0) degenerate++;
      else area += Math.sqrt(nn);
      volume += (ax - ox) * nx + (ay - oy) * ny + (az - oz) * nz;
    }
    this.store(minX, minY, minZ, maxX, maxY, maxZ, volume, area, degenerate, n);
  }

  /**
   * Binary STL records read straight from the file's bytes (no copy); same rule for the calls.
   * Bad coordinates are found once per call: NaN or infinity makes the area sum non-finite, a huge
   * value shows in the box.
   */
  addStlRecords(view: DataView, offset: number, n: number, firstIndex: number): void {
    if (n === 0) return;
    if (this.count === 0) {
      this.setOrigin(
        view.getFloat32(offset + 12, true),
        view.getFloat32(offset + 16, true),
        view.getFloat32(offset + 20, true),
      );
    }
    const origin = this.origin;
    const ox = origin[0]!;
    const oy = origin[1]!;
    const oz = origin[2]!;
    let minX = this.minX;
    let minY = this.minY;
    let minZ = this.minZ;
    let maxX = this.maxX;
    let maxY = this.maxY;
    let maxZ = this.maxZ;
    let volume = this.sums[RUN_VOLUME]!;
    let area = this.sums[RUN_AREA]!;
    let degenerate = 0;
    for (let r = 0, o = offset + 12; r < n; r++, o += 50) {
      const ax = view.getFloat32(o, true);
      const ay = view.getFloat32(o + 4, true);
      const az = view.getFloat32(o + 8, true);
      const bx = view.getFloat32(o + 12, true);
      const by = view.getFloat32(o + 16, true);
      const bz = view.getFloat32(o + 20, true);
      const cx = view.getFloat32(o + 24, true);
      const cy = view.getFloat32(o + 28, true);
      const cz = view.getFloat32(o + 32, true);
      if (
        ax < minX ||
        bx < minX ||
        cx < minX ||
        ax > maxX ||
        bx > maxX ||
        cx > maxX ||
        ay < minY ||
        by < minY ||
        cy < minY ||
        ay > maxY ||
        by > maxY ||
        cy > maxY ||
        az < minZ ||
        bz < minZ ||
        cz < minZ ||
        az > maxZ ||
        bz > maxZ ||
        cz > maxZ
      ) {
        if (ax < minX) minX = ax;
        if (ax > maxX) maxX = ax;
        if (bx < minX) minX = bx;
        if (bx > maxX) maxX = bx;
        if (cx < minX) minX = cx;
        if (cx > maxX) maxX = cx;
        if (ay < minY) minY = ay;
        if (ay > maxY) maxY = ay;
        if (by < minY) minY = by;
        if (by > maxY) maxY = by;
        if (cy < minY) minY = cy;
        if (cy > maxY) maxY = cy;
        if (az < minZ) minZ = az;
        if (az > maxZ) maxZ = az;
        if (bz < minZ) minZ = bz;
        if (bz > maxZ) maxZ = bz;
        if (cz < minZ) minZ = cz;
        if (cz > maxZ) maxZ = cz;
      }
      const ux = bx - ax;
      const uy = by - ay;
      const uz = bz - az;
      const vx = cx - ax;
      const vy = cy - ay;
      const vz = cz - az;
      const nx = uy * vz - uz * vy;
      const ny = uz * vx - ux * vz;
      const nz = ux * vy - uy * vx;
      const nn = nx * nx + ny * ny + nz * nz;
      if (nn === 0) degenerate++;
      else area += Math.sqrt(nn);
      volume += (ax - ox) * nx + (ay - oy) * ny + (az - oz) * nz;
    }
    if (!(area - area === 0 && Math.max(-minX, -minY, -minZ, maxX, maxY, maxZ) <= LIMIT)) {
      findBadRecord(view, offset, n, firstIndex);
    }
    this.store(minX, minY, minZ, maxX, maxY, maxZ, volume, area, degenerate, n);
  }

  result(): GeometryResult {
    const s = this.sums;
    const [volume, volumeCompensation] = neumaier(s[VOLUME]!, s[VOLUME_C]!, s[RUN_VOLUME]!);
    const [area, areaCompensation] = neumaier(s[AREA]!, s[AREA_C]!, s[RUN_AREA]!);
    return {
      triangles: this.count,
      degenerateFaces: this.degenerate,
      volume6: volume + volumeCompensation,
      area2: area + areaCompensation,
      min: [this.minX, this.minY, this.minZ],
      max: [this.maxX, this.maxY, this.maxZ],
      origin: [this.origin[0]!, this.origin[1]!, this.origin[2]!],
    };
  }

  private setOrigin(x: number, y: number, z: number): void {
    this.origin[0] = x;
    this.origin[1] = y;
    this.origin[2] = z;
  }

  private store(
    minX: number,
    minY: number,
    minZ: number,
    maxX: number,
    maxY: number,
    maxZ: number,
    volume: number,
    area: number,
    degenerate: number,
    n: number,
  ): void {
    this.minX = minX;
    this.minY = minY;
    this.minZ = minZ;
    this.maxX = maxX;
    this.maxY = maxY;
    this.maxZ = maxZ;
    this.degenerate += degenerate;
    this.count += n;
    if (this.count > MAX_TRIANGLES) {
      throw new MeshError(
        'too-many-triangles',
        `The model has more than ${MAX_TRIANGLES.toLocaleString('en-US')} triangles: please simplify it before uploading.`,
      );
    }
    const s = this.sums;
    s[RUN_VOLUME] = volume;
    s[RUN_AREA] = area;
    if (this.count % BATCH_TRIANGLES === 0) {
      [s[VOLUME], s[VOLUME_C]] = neumaier(s[VOLUME]!, s[VOLUME_C]!, volume);
      [s[AREA], s[AREA_C]] = neumaier(s[AREA]!, s[AREA_C]!, area);
      s[RUN_VOLUME] = 0;
      s[RUN_AREA] = 0;
    }
  }
}

/** Adds x to the compensated sum (sum, compensation). */
function neumaier(sum: number, compensation: number, x: number): [number, number] {
  const t = sum + x;
  const c = Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
  return [t, compensation + c];
}

/** Throws for the first record with a NaN, infinite or huge coordinate. */
function findBadRecord(view: DataView, offset: number, n: number, firstIndex: number): void {
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < 9; c++) {
      const v = view.getFloat32(offset + 50 * r + 12 + 4 * c, true);
      if (!(Math.abs(v) <= LIMIT)) throw badCoordinate(v, `in triangle ${firstIndex + r + 1}`);
    }
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new Geometry());
