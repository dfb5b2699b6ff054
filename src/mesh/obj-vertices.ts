// The vertices of an OBJ file as they stream in: welded by exact position as they arrive (so faces
// come out as welded ids and the watertight check needs no second hash), or kept as they are.

import { growInt32 } from './grow.ts';
import { keepShape } from './keep-shapes.ts';
import { VertexWelder } from './vertex-welder.ts';

/** Vertices waiting to be welded together (welding in batches overlaps the memory accesses). */
const PENDING = 512;

export class ObjVertices {
  /** Vertices defined so far (v lines). */
  count = 0;
  /** Vertices welded so far; the rest (up to count) are pending. */
  private welded = 0;
  private readonly pending = new Float64Array(3 * PENDING);
  /** OBJ vertex number - 1 -> welded id. */
  private remap: Int32Array | null;
  private readonly welder: VertexWelder | null;
  /** Unwelded coordinates, when welding is off. */
  private plain: Float64Array | null;

  /** expected: a guess of the vertex count, to size the weld table once. */
  constructor(weld: boolean, expected = 0) {
    this.welder = weld ? new VertexWelder(expected) : null;
    this.remap = weld ? new Int32Array(1024) : null;
    // Sized once from the guess: doubling a big array costs a copy and fresh pages each time.
    this.plain = weld ? null : new Float64Array(3 * Math.max(1024, expected));
  }

  add(x: number, y: number, z: number): void {
    const n = this.count;
    if (this.welder !== null) {
      const k = 3 * (n - this.welded);
      const pending = this.pending;
      pending[k] = x;
      pending[k + 1] = y;
      pending[k + 2] = z;
      this.count = n + 1;
      if (n + 1 - this.welded === PENDING) this.flush();
    } else {
      let plain = this.plain!;
      if (3 * n + 3 > plain.length) {
        const next = new Float64Array(plain.length * 2);
        next.set(plain);
        plain = next;
        this.plain = plain;
      }
      plain[3 * n] = x;
      plain[3 * n + 1] = y;
      plain[3 * n + 2] = z;
      this.count = n + 1;
    }
  }

  /** Adds count vertices given as x, y, z in xyz. */
  addAll(xyz: Float64Array, count: number): void {
    if (this.welder !== null) {
      for (let k = 0; k < 3 * count; k += 3) this.add(xyz[k]!, xyz[k + 1]!, xyz[k + 2]!);
      return;
    }
    const n = this.count;
    let plain = this.plain!;
    if (3 * (n + count) > plain.length) {
      const next = new Float64Array(Math.max(plain.length * 2, 3 * (n + count)));
      next.set(plain);
      plain = next;
      this.plain = plain;
    }
    plain.set(xyz.subarray(0, 3 * count), 3 * n);
    this.count = n + count;
  }

  /** The id of vertex v (0-based OBJ number): its welded id, or v itself. */
  id(v: number): number {
    if (this.remap === null) return v;
    if (v >= this.welded) this.flush();
    return this.remap[v]!;
  }

  /** Replaces the vertex numbers corners[from .. from + n) (0-based) by their ids: one call a face. */
  toIds(corners: Int32Array, from: number, n: number): void {
    if (this.remap === null) return;
    let max = 0;
    for (let k = from; k < from + n; k++) if (corners[k]! > max) max = corners[k]!;
    if (max >= this.welded) this.flush();
    const remap = this.remap;
    for (let k = from; k < from + n; k++) corners[k] = remap[corners[k]!]!;
  }

  /** Welds the pending vertices. */
  flush(): void {
    const n = this.count - this.welded;
    if (n === 0 || this.welder === null) return;
    let remap = this.remap!;
    if (this.count > remap.length) {
      remap = growInt32(remap, this.count);
      this.remap = remap;
    }
    this.welder.weldAll(this.pending, n, remap, this.welded);
    this.welded = this.count;
  }

  /** x, y, z of each id at 3 * id (read it again after add or id: it may grow). */
  coordinates(): Float64Array {
    return this.welder !== null ? this.welder.coords : this.plain!;
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new ObjVertices(true));
