// The 3MF analysis as it was before issue #27 part 2: every placed triangle emitted as 9 coordinates and
// measured like an STL's, its corners welded one by one. The reference of the differential tests, and the
// bench's "before".

import { toAnalysis } from '../analysis.ts';
import { CollectSink, TeeSink } from '../collect.ts';
import { MeasureSink } from '../measure.ts';
import type { ThreeMfModel } from '../threemf/read.ts';
import { Topology } from '../topology.ts';
import type { MeshAnalysis } from '../types.ts';

const UNIT_NAMES: Record<string, string> = {
  micron: 'microns',
  centimeter: 'centimetres',
  inch: 'inches',
  foot: 'feet',
  meter: 'metres',
};

export function analyse3mfBySoup(
  model: ThreeMfModel,
  options: { topology?: boolean; collectTriangles?: number } = {},
): { analysis: MeshAnalysis; triangles: Float32Array | null } {
  const topology = options.topology === false ? null : new Topology(model.triangles);
  const measure = new MeasureSink(topology);
  const collect = options.collectTriangles ? new CollectSink(options.collectTriangles) : null;
  model.emit(collect ? new TeeSink([measure, collect]) : measure);
  const unitName = UNIT_NAMES[model.unit];
  const warnings = unitName
    ? [`This 3MF file is drawn in ${unitName}: its sizes were converted to millimetres.`]
    : [];
  const g = measure.geometry.result();
  const analysis = toAnalysis('3mf', g, topology ? topology.result(g) : null, { warnings });
  return { analysis, triangles: collect ? collect.result() : null };
}
