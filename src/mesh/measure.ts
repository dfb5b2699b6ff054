// The analysis sink of the text formats: geometry (volume, area, box) and, optionally, topology.

import { Geometry } from './geometry.ts';
import { keepShape } from './keep-shapes.ts';
import type { Topology } from './topology.ts';
import type { TriangleSink } from './types.ts';

export class MeasureSink implements TriangleSink {
  readonly geometry = new Geometry();
  readonly topology: Topology | null;

  constructor(topology: Topology | null) {
    this.topology = topology;
  }

  triangles(positions: Float64Array, ids: Int32Array | null, n: number): void {
    this.geometry.addTriangles(positions, n);
    if (this.topology !== null) this.topology.triangles(positions, ids, n);
  }

  vertexPositions(coordinates: Float64Array): void {
    this.topology?.vertexPositions(coordinates);
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new MeasureSink(null));
