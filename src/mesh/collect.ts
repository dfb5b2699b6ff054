// Keeps the triangles of a small model for the preview, up to a cap, so one pass can both analyse
// and render it. Past the cap it gives up (keeping memory bounded) rather than thinning the mesh,
// which would render with holes; the caller then renders with a second streamed pass.

import { keepShape } from './keep-shapes.ts';
import type { TriangleSink } from './types.ts';

export class CollectSink implements TriangleSink {
  private data: Float32Array | null;
  private count = 0;
  private readonly cap: number;

  constructor(cap: number) {
    this.cap = cap;
    this.data = new Float32Array(9 * Math.min(cap, 4096));
  }

  get closed(): boolean {
    return this.data === null;
  }

  triangles(positions: Float64Array, _ids: Int32Array | null, n: number): void {
    let data = this.data;
    if (data === null) return;
    if (this.count + n > this.cap) {
      this.data = null;
      return;
    }
    if (9 * (this.count + n) > data.length) {
      const next = new Float32Array(Math.min(9 * this.cap, data.length * 2 + 9 * n));
      next.set(data);
      data = next;
      this.data = next;
    }
    data.set(positions.subarray(0, 9 * n), 9 * this.count);
    this.count += n;
  }

  /** The triangles (9 floats each), or null if there were more than the cap. */
  result(): Float32Array | null {
    return this.data === null ? null : this.data.subarray(0, 9 * this.count);
  }
}

/** Hands each batch to several sinks. */
export class TeeSink implements TriangleSink {
  private readonly sinks: TriangleSink[];

  constructor(sinks: TriangleSink[]) {
    this.sinks = sinks;
  }

  triangles(positions: Float64Array, ids: Int32Array | null, n: number): void {
    for (const sink of this.sinks) sink.triangles(positions, ids, n);
  }

  vertexPositions(coordinates: Float64Array): void {
    for (const sink of this.sinks) sink.vertexPositions?.(coordinates);
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new CollectSink(0));
keepShape(new TeeSink([]));
