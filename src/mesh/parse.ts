// One entry point from a format to its chunk parser.

import type { Geometry } from './geometry.ts';
import { createObjParser } from './obj.ts';
import { createAsciiStlParser } from './stl-ascii.ts';
import { BinaryStlParser } from './stl-binary.ts';
import type { Topology } from './topology.ts';
import type { ChunkParser, MeshFormat, TriangleSink } from './types.ts';

const noSink: TriangleSink = { triangles: () => {} };

export interface FormatParser extends ChunkParser {
  /** OBJ only: the file had lines or points (for the 'no faces' message). */
  sawLinesOrPoints(): boolean;
  /** After finish: notes about oddities that were tolerated. */
  warnings(): string[];
}

/**
 * sink receives every triangle. For binary STL it may be null: a Geometry and a Topology given in
 * options then read the records in place (the analysis' fast path).
 */
export function createParser(
  format: MeshFormat,
  sink: TriangleSink | null,
  options: { weld?: boolean; geometry?: Geometry; topology?: Topology; totalSize?: number } = {},
): FormatParser {
  const weld = options.weld !== false;
  const textSink = sink ?? noSink;
  if (format === 'obj') {
    const obj = createObjParser(textSink, {
      weld,
      ...(options.totalSize ? { totalSize: options.totalSize } : {}),
    });
    return { ...obj, warnings: () => [] };
  }
  if (format === 'stl-binary') {
    const binary = new BinaryStlParser(sink, options.geometry ?? null, options.topology ?? null);
    return {
      push: (chunk) => binary.push(chunk),
      finish: () => binary.finish(),
      sawLinesOrPoints: () => false,
      warnings: () => binary.warnings(),
    };
  }
  const ascii = createAsciiStlParser(textSink);
  return {
    push: (chunk) => ascii.push(chunk),
    finish: () => ascii.finish(),
    sawLinesOrPoints: () => false,
    warnings: () => [],
  };
}
