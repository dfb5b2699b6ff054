/** The formats read as a stream of chunks. */
export type MeshFormat = 'stl-binary' | 'stl-ascii' | 'obj';
export type MeshExtension = 'stl' | 'obj';
/** Every format the shop accepts: 3MF is a ZIP archive, read whole (src/mesh/threemf). */
export type ModelFormat = MeshFormat | '3mf';
export type ModelExtension = MeshExtension | '3mf';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface BoundingBox {
  min: Vec3;
  max: Vec3;
}

/** What the shop needs to price and describe a model. Lengths in mm as in the file. */
export interface MeshAnalysis {
  format: ModelFormat;
  triangles: number;
  bbox: BoundingBox;
  /** Size of the bounding box in mm. */
  dimensions: Vec3;
  /**
   * Enclosed volume in cm3, >= 0: each closed shell counted on its own (turned outward if inside out,
   * taken off if it is a void enclosed by a solid), each open shell as |its signed volume| (shells.ts).
   */
  volumeCm3: number;
  /** Surface area in cm2. */
  areaCm2: number;
  /** Closed and manifold: every edge is shared by exactly two faces. */
  watertight: boolean;
  /** Edges used by one face only (holes). */
  openEdges: number;
  /** Edges used by more than two faces. */
  nonManifoldEdges: number;
  /** Faces of zero area or with a repeated vertex. */
  degenerateFaces: number;
  /** Connected components of the welded mesh (0 without the topology check). */
  shells: number;
  /** Closed shells that were inside out and were turned outward (counted in full). */
  correctedShells: number;
  /** Closed shells enclosed by a solid and wound the other way: voids, their volume taken off. */
  voidShells: number;
  /** Oddities of the file that were tolerated (user-facing English); the server adds its own. */
  warnings: string[];
}

/**
 * Receives triangles from a parser in batches (one call per few hundred triangles keeps the hot
 * loops short and monomorphic). positions holds 9 numbers per triangle; ids, when the format
 * already names its vertices (OBJ), holds 3 welded vertex ids per triangle. Both are the parser's
 * buffers, reused after the call (and ASCII STL's lives in WebAssembly memory, which a later read may
 * move): a sink copies what it keeps.
 */
export interface TriangleSink {
  triangles(positions: Float64Array, ids: Int32Array | null, count: number): void;
  /**
   * After the last triangles, from a format that named its vertices (OBJ): x, y, z of each id at 3 * id
   * (the parser's own array: read it, never change it).
   */
  vertexPositions?(coordinates: Float64Array): void;
  /**
   * True once the sink takes no more triangles (a CollectSink past its cap): a parser that decodes
   * triangles only for its sink (binary STL) then stops decoding them.
   */
  readonly closed?: boolean;
}

/** A chunk-fed parser: push arbitrary slices of the file in order, then finish. */
export interface ChunkParser {
  push(chunk: Uint8Array): void;
  finish(): void;
}

/** Triangles per batch handed to a sink. */
export const BATCH_TRIANGLES = 256;
