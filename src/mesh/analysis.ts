// The analyzer the server runs: chunks in, MeshAnalysis out (or a MeshError).

import { CollectSink, TeeSink } from './collect.ts';
import { detectFormat } from './detect.ts';
import { MeshError } from './errors.ts';
import { Geometry, type GeometryResult } from './geometry.ts';
import { MeasureSink } from './measure.ts';
import { createParser, type FormatParser } from './parse.ts';
import { primeOnce } from './prime.ts';
import { HEADER_BYTES, RECORD_BYTES } from './stl-binary.ts';
import { Topology, type TopologyResult, type WeldedMesh } from './topology.ts';
import type { MeshAnalysis, MeshExtension, MeshFormat, ModelFormat } from './types.ts';

export interface AnalyzerOptions {
  /** Weld vertices and count edges for the watertight check (default true; off only to measure its cost). */
  topology?: boolean;
  /** The file's size, if known: presizes the tables of a binary STL (never trusted from its header). */
  totalSize?: number;
  /** Keep up to this many triangles for renderPreview (none by default). */
  collectTriangles?: number;
  /**
   * Binary STL: keep the vertex positions through the watertight check even for a one-part model, so that
   * a closed part with edges of more than two faces can be cut along them (shells.ts). Costs memory for
   * every model, so it is asked for only on a second pass, when the first says needsSecondPass().
   */
  keepPositions?: boolean;
  /** Keep the welded mesh the watertight check built, for weldedMesh() (the 3D viewer's mesh). */
  keepMesh?: boolean;
}

export interface MeshAnalyzer {
  push(chunk: Uint8Array): void;
  finish(): MeshAnalysis;
  /** After finish: the collected triangles, or null if none were asked for or there were too many. */
  previewTriangles(): Float32Array | null;
  /**
   * After finish: the file should be analysed again with keepPositions, whose answer replaces this one
   * (a binary STL of one closed part with edges of more than two faces: rare).
   */
  needsSecondPass(): boolean;
  /** After finish, with keepMesh: the welded faces and positions of the watertight check, else null. */
  weldedMesh(): WeldedMesh | null;
  /**
   * A slice (~1 ms) of what finish would do with the faces so far, for a caller about to wait for more of
   * the file (an upload followed as it arrives); whether some is left.
   */
  spare(): boolean;
}

/** Faces a spare() slice labels and counts. */
const SPARE_FACES = 16_384;

export function createMeshAnalyzer(format: MeshFormat, options: AnalyzerOptions = {}): MeshAnalyzer {
  primeOnce((sample, bytes, round) => {
    const analyzer = buildAnalyzer(sample, { totalSize: bytes.length, topology: round % 4 !== 3 });
    // Odd chunks, so that the chunk-joining paths warm up too.
    for (let k = 0; k < bytes.length; k += 4093) analyzer.push(bytes.subarray(k, k + 4093));
    analyzer.finish();
  });
  return buildAnalyzer(format, options);
}

function buildAnalyzer(format: MeshFormat, options: AnalyzerOptions): MeshAnalyzer {
  const size = options.totalSize ?? 0;
  const expectedTriangles =
    format === 'stl-binary' && size > HEADER_BYTES ? Math.floor((size - HEADER_BYTES) / RECORD_BYTES) : 0;
  const topology =
    options.topology === false
      ? null
      : new Topology(expectedTriangles, {
          keepPositions: options.keepPositions ?? false,
          keepMesh: options.keepMesh ?? false,
        });
  const collect = options.collectTriangles ? new CollectSink(options.collectTriangles) : null;
  let geometry: Geometry;
  let parser: FormatParser;
  if (format === 'stl-binary') {
    // Geometry and topology read the records in place; only the preview needs copied triangles.
    geometry = new Geometry();
    parser = createParser(format, collect, { geometry, ...(topology ? { topology } : {}) });
  } else {
    const measure = new MeasureSink(topology);
    geometry = measure.geometry;
    parser = createParser(format, collect ? new TeeSink([measure, collect]) : measure, {
      weld: topology !== null,
      totalSize: size,
    });
  }
  let done = false;
  return {
    push(chunk) {
      if (done) throw new Error('MeshAnalyzer.push after finish');
      if (chunk.length > 0) parser.push(chunk);
    },
    finish() {
      done = true;
      parser.finish();
      const g = geometry.result();
      return toAnalysis(format, g, topology ? topology.result(g) : null, {
        sawLinesOrPoints: parser.sawLinesOrPoints(),
        warnings: parser.warnings(),
      });
    },
    previewTriangles: () => (collect && done ? collect.result() : null),
    needsSecondPass: () => done && (topology?.needsPositions ?? false),
    weldedMesh: () => (done ? (topology?.kept ?? null) : null),
    spare: () => !done && topology !== null && topology.followUp(SPARE_FACES),
  };
}

export function toAnalysis(
  format: ModelFormat,
  g: GeometryResult,
  t: TopologyResult | null,
  notes: { sawLinesOrPoints?: boolean; warnings?: string[] } = {},
): MeshAnalysis {
  if (g.triangles === 0) {
    throw new MeshError(
      'no-faces',
      notes.sawLinesOrPoints
        ? 'The model has no faces, only lines or points: there is no surface to print.'
        : 'The model has no faces.',
    );
  }
  if (g.degenerateFaces === g.triangles) {
    throw new MeshError(
      'all-degenerate',
      `All ${g.triangles} faces of the model have zero area: there is no surface to print.`,
    );
  }
  const [minX, minY, minZ] = g.min;
  const [maxX, maxY, maxZ] = g.max;
  return {
    format,
    triangles: g.triangles,
    bbox: { min: { x: minX, y: minY, z: minZ }, max: { x: maxX, y: maxY, z: maxZ } },
    dimensions: { x: maxX - minX, y: maxY - minY, z: maxZ - minZ },
    // The shells' volume (each part counted on its own), or without the topology check |signed sum|.
    volumeCm3: (t ? t.volume6 : Math.abs(g.volume6)) / 6000,
    areaCm2: g.area2 / 200,
    watertight: t !== null && t.openEdges === 0 && t.nonManifoldEdges === 0,
    openEdges: t ? t.openEdges : 0,
    nonManifoldEdges: t ? t.nonManifoldEdges : 0,
    degenerateFaces: g.degenerateFaces,
    shells: t ? t.shells : 0,
    correctedShells: t ? t.correctedShells : 0,
    voidShells: t ? t.voidShells : 0,
    warnings: notes.warnings ?? [],
  };
}

/** Chunk size used by analyzeMesh, like a file read. */
export const CHUNK_BYTES = 1 << 20;

/** Detects and analyses a whole file held in memory (tests, scripts). */
export function analyzeMesh(
  bytes: Uint8Array,
  extension: MeshExtension,
  options: AnalyzerOptions = {},
): MeshAnalysis {
  const format = detectFormat(bytes, bytes.length, extension);
  const run = (more: AnalyzerOptions) => {
    const analyzer = createMeshAnalyzer(format, { totalSize: bytes.length, ...options, ...more });
    for (let k = 0; k < bytes.length; k += CHUNK_BYTES) analyzer.push(bytes.subarray(k, k + CHUNK_BYTES));
    return { analysis: analyzer.finish(), again: analyzer.needsSecondPass() };
  };
  const first = run({});
  return first.again ? run({ keepPositions: true }).analysis : first.analysis;
}
