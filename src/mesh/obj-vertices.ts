// The vertices of an OBJ file as they stream in: welded by exact position as they arrive (so faces
// come out as welded ids and the watertight check needs no second hash), or kept as they are.

import { VertexWelder } from './vertex-welder.ts';

export class ObjVertices {
  /** Vertices defined so far (v lines). */
  count = 0;
  /** OBJ vertex number - 1 -> welded id. */
  private remap: Int32Array | null;
  private readonly welder: VertexWelder | null;
  /** Unwelded coordinates, when welding is off. */
  private plain: Float64Array | null;

  constructor(weld: boolean) {
    this.welder = weld ? new VertexWelder() : null;
    this.remap = weld ? new Int32Array(1024) : null;
    this.plain = weld ? null : new Float64Array(3 * 1024);
  }

  add(x: number, y: number, z: number): void {
    const n = this.count;
    if (this.welder !== null) {
      let remap = this.remap!;
      if (n === remap.length) {
        remap = grow(remap);
        this.remap = remap;
      }
      remap[n] = this.welder.weldUncached(x, y, z);
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
    }
    this.count = n + 1;
  }

  /** The id of vertex v (0-based OBJ number): its welded id, or v itself. */
  id(v: number): number {
    return this.remap !== null ? this.remap[v]! : v;
  }

  /** x, y, z of each id at 3 * id (read it again after add: it may grow). */
  coordinates(): Float64Array {
    return this.welder !== null ? this.welder.coords : this.plain!;
  }
}

function grow(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}
