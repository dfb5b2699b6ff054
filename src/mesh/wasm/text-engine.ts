// The text formats' fast paths (text-fast.as.ts, compiled to WebAssembly) as the parsers use them, and the
// 3MF reader for the vertices and triangles of its model XML: a range of the caller's buffer is copied into
// the module's memory once, and positions are given and returned in the caller's buffer.

import { MAX_COORDINATE } from '../coordinates.ts';
import { keepShape } from '../keep-shapes.ts';
import { MAX_TOKEN } from '../text-chunker.ts';
import { BATCH_TRIANGLES } from '../types.ts';
import { TEXT_FAST_WASM } from './text-fast.wasm.ts';

// The few WebAssembly APIs used here, declared locally: the server's build has no DOM library, where
// TypeScript declares them.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  memory: WasmMemory;
  heapBase(): number;
  readFacets(start: number, end: number, out: number, max: number, limit: number, tokenLimit: number): number;
  stlEnd(): number;
  stlLines(): number;
  readObjLines(
    start: number,
    end: number,
    count: number,
    vertexOut: number,
    maxVertices: number,
    faceOut: number,
    faceWords: number,
    limit: number,
    tokenLimit: number,
  ): void;
  objStop(): number;
  objLineCount(): number;
  objVertexCount(): number;
  objFaceLength(): number;
  objOutputFull(): number;
  readVertices(start: number, end: number, out: number, max: number, limit: number, unit: number): number;
  readTriangles(start: number, end: number, out: number, max: number): number;
  largestIndex(): number;
  xmlStop(): number;
  readNumber(p: number, limit: number): number;
  lastValue(): number;
}

let compiled: object | null = null;

/** Instances that finished parsers gave back, for the next ones in this thread. */
const idle: Exports[] = [];

/**
 * One instance per parser (its memory holds that parser's text), taken from those finished parsers gave
 * back: a new instance costs about a millisecond (its memory's address space is reserved and guarded).
 * The module is compiled once per thread.
 */
function instantiate(): Exports {
  const reused = idle.pop();
  if (reused) return reused;
  compiled ??= new wasmApi.Module(Buffer.from(TEXT_FAST_WASM, 'base64'));
  return new wasmApi.Instance(compiled, {}).exports as Exports;
}

/** Bytes the fast paths may read past a range's end: zeros, which end every token and number. */
const PADDING = 16;
const PAGE = 65536;
/** OBJ lines read per call, at most. */
const OBJ_VERTICES = 4096;
const OBJ_FACE_WORDS = 16384;

class Engine {
  protected readonly wasm = instantiate();
  /** Where the subclass's output starts in the module's memory (8-byte aligned). */
  protected readonly output: number;
  /** Where the copied range starts, and its offset from the caller's positions. */
  private readonly input: number;
  private shift = 0;
  protected bytes = new Uint8Array(0);

  /** Lays out `reserve` bytes of output, then the input. */
  constructor(reserve: number) {
    this.output = (this.wasm.heapBase() + 7) & ~7;
    this.input = (this.output + reserve + 15) & ~15;
    this.ensure(RANGE_GUESS);
  }

  private released = false;

  /** Gives the instance back for another parser, at the end: this engine is not used after it. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (idle.length < 2) idle.push(this.wasm);
    // The first engine of each kind given back keeps its maps (keep-shapes.ts), and with them its instance
    // (one per kind, its memory bounded by a range or chunk), which it never uses again.
    keepShape(this);
  }

  /** Makes buf[start, end) readable by the fast paths, until the next load. */
  load(buf: Uint8Array, start: number, end: number): void {
    const length = end - start;
    this.ensure(length);
    const bytes = this.bytes;
    bytes.set(buf.subarray(start, end), this.input);
    bytes.fill(0, this.input + length, this.input + length + PADDING);
    this.shift = this.input - start;
  }

  /** A position in the caller's buffer, in the module's memory. */
  protected at(i: number): number {
    return i + this.shift;
  }

  /** A position in the module's memory, in the caller's buffer. */
  protected from(p: number): number {
    return p - this.shift;
  }

  /** Grows the memory for an input of length bytes, and remakes the views if it moved. */
  private ensure(length: number): void {
    const memory = this.wasm.memory;
    const needed = this.input + length + PADDING;
    if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    if (this.bytes.buffer !== memory.buffer) this.views();
  }

  /** The number at i (a token of the loaded range): its value, or null if the fast paths leave it alone. */
  number(i: number): number | null {
    return this.wasm.readNumber(this.at(i), Number.POSITIVE_INFINITY) === 0 ? null : this.wasm.lastValue();
  }

  /** (Re)makes the typed arrays over the memory: growing it detaches the old ones. */
  protected views(): void {
    this.bytes = new Uint8Array(this.wasm.memory.buffer);
  }
}

/** Ranges are cut to about 64 kB (text-chunker.ts); memory grows for a longer one. */
const RANGE_GUESS = 80 * 1024;

/** ASCII STL: whole plain facets straight into the batch of triangles. */
export class StlEngine extends Engine {
  /** The batch the facets are written to: nine coordinates a triangle, BATCH_TRIANGLES of them. */
  batch = new Float64Array(0);
  /** After readFacets: where it stopped (past the whitespace of the last facet), and newlines crossed. */
  end = 0;
  lines = 0;

  constructor() {
    super(72 * BATCH_TRIANGLES);
    this.views();
  }

  protected override views(): void {
    super.views();
    this.batch = new Float64Array(this.wasm.memory.buffer, this.output, 9 * BATCH_TRIANGLES);
  }

  /** Reads plain facets from the token at i into the batch from triangle first on; returns how many. */
  readFacets(i: number, end: number, first: number): number {
    const wasm = this.wasm;
    const n = wasm.readFacets(
      this.at(i),
      this.at(end),
      this.output + 72 * first,
      BATCH_TRIANGLES - first,
      MAX_COORDINATE,
      MAX_TOKEN,
    );
    this.end = this.from(wasm.stlEnd());
    this.lines = wasm.stlLines();
    return n;
  }
}

/** OBJ: plain `v` and `f` lines, and skipped comments, `vt` and `vn` lines. */
export class ObjEngine extends Engine {
  /** After readLines: the vertices read (x, y, z each), */
  vertices = new Float64Array(0);
  vertexCount = 0;
  /** the faces read (each its corner count, then its 0-based vertex numbers), */
  faces = new Int32Array(0);
  faceWords = 0;
  /** where it stopped (the start of a line it did not take), newlines crossed, and whether it stopped
   * only because its output was full. */
  end = 0;
  lines = 0;
  full = false;

  constructor() {
    super(24 * OBJ_VERTICES + 4 * OBJ_FACE_WORDS);
    this.views();
  }

  /** The faces' words follow the vertices. */
  private get faceOut(): number {
    return this.output + 24 * OBJ_VERTICES;
  }

  protected override views(): void {
    super.views();
    const buffer = this.wasm.memory.buffer;
    this.vertices = new Float64Array(buffer, this.output, 3 * OBJ_VERTICES);
    this.faces = new Int32Array(buffer, this.faceOut, OBJ_FACE_WORDS);
  }

  /** Reads lines from the line start at i; count: vertices defined before it. */
  readLines(i: number, end: number, count: number): void {
    const wasm = this.wasm;
    wasm.readObjLines(
      this.at(i),
      this.at(end),
      count,
      this.output,
      OBJ_VERTICES,
      this.faceOut,
      OBJ_FACE_WORDS,
      MAX_COORDINATE,
      MAX_TOKEN,
    );
    this.end = this.from(wasm.objStop());
    this.lines = wasm.objLineCount();
    this.vertexCount = wasm.objVertexCount();
    this.faceWords = wasm.objFaceLength();
    this.full = wasm.objOutputFull() !== 0;
  }
}

/** Children read per call, at most. */
const XML_VERTICES = 8192;
const XML_TRIANGLES = 16384;

/** 3MF model XML: runs of plain <vertex> and <triangle> children (threemf/fast-path.ts). */
export class ModelXmlEngine extends Engine {
  /** After readVertices: x, y, z per vertex (in mm); after readTriangles: v1, v2, v3 per triangle. */
  vertices = new Float64Array(0);
  triangles = new Int32Array(0);
  /** Where the last read stopped (past the last child it read and the whitespace after it), and whether
   * only because its output was full. */
  end = 0;
  full = false;
  /** After readTriangles: the largest index it read (0 if none). */
  largest = 0;

  constructor() {
    super(24 * XML_VERTICES + 12 * XML_TRIANGLES);
    this.views();
  }

  protected override views(): void {
    super.views();
    const buffer = this.wasm.memory.buffer;
    this.vertices = new Float64Array(buffer, this.output, 3 * XML_VERTICES);
    this.triangles = new Int32Array(buffer, this.output + 24 * XML_VERTICES, 3 * XML_TRIANGLES);
  }

  /** Reads <vertex> children from i (loaded) while they end before end, times unit; returns how many. */
  readVertices(i: number, end: number, unit: number): number {
    const n = this.wasm.readVertices(
      this.at(i),
      this.at(end),
      this.output,
      XML_VERTICES,
      MAX_COORDINATE,
      unit,
    );
    this.end = this.from(this.wasm.xmlStop());
    this.full = n === XML_VERTICES;
    return n;
  }

  /** Reads <triangle> children from i (loaded) while they end before end; returns how many. */
  readTriangles(i: number, end: number): number {
    const n = this.wasm.readTriangles(
      this.at(i),
      this.at(end),
      this.output + 24 * XML_VERTICES,
      XML_TRIANGLES,
    );
    this.end = this.from(this.wasm.xmlStop());
    this.full = n === XML_TRIANGLES;
    this.largest = this.wasm.largestIndex() >>> 0;
    return n;
  }
}

let numbers: StlEngine | null = null;

/** The fast paths' number reader on one token (tests): its value, or null if it leaves it to the state machines. */
export function fastNumber(text: string): number | null {
  numbers ??= new StlEngine();
  const bytes = Uint8Array.from(`${text} `, (c) => c.charCodeAt(0) & 0xff);
  numbers.load(bytes, 0, bytes.length);
  return numbers.number(0);
}
