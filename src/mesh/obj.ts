// Wavefront OBJ: `v x y z [w | r g b]` vertices and `f` faces of 3 or more corners (`i`, `i/t`,
// `i//n`, `i/t/n`; negative indices count back from the last vertex), fan-triangulated as they
// stream, so a 1000-corner face costs no memory. Everything else (vt, vn, l, p, o, g, s, usemtl,
// comments...) is skipped. `\` at a line's end joins the next line. Vertices are welded as they
// are read, so faces arrive as welded ids and the topology check needs no second hash.

import { badCoordinate, MAX_COORDINATE } from './coordinates.ts';
import { MeshError, quoteToken } from './errors.ts';
import { keepShape } from './keep-shapes.ts';
import { latin1, NOT_FINITE, parseDecimal, parsedNumber, tokenEnd } from './number-parser.ts';
import { ObjVertices } from './obj-vertices.ts';
import { MAX_TOKEN, type RangeParser, TextChunker, tokenTooLong } from './text-chunker.ts';
import { BATCH_TRIANGLES, type ChunkParser, type TriangleSink } from './types.ts';
import { ObjEngine } from './wasm/text-engine.ts';

// Parser states.
const LINE_START = 0;
const VERTEX = 1; // reading coordinates
const FACE = 2; // reading corners
const SKIP_LINE = 3;

const HASH = 35;
const SLASH = 47;
const BACKSLASH = 92;
const MINUS = 45;
const PLUS = 43;
// Imported bindings cost V8 a load and a check at every use: the hot loop reads local copies.
const BATCH = BATCH_TRIANGLES;

export interface ObjOptions {
  /** Weld vertices by position (needed for the watertight check). Default true. */
  weld?: boolean;
  /** The file's size, if known: sizes the weld table once. */
  totalSize?: number;
  /** false leaves every line to the state machine (tests compare the two). Default true. */
  fastPath?: boolean;
}

class ObjRanges implements RangeParser {
  line = 1;
  /** Whether `l` or `p` statements were seen: a better message when there are no faces. */
  sawLinesOrPoints = false;
  private state = LINE_START;
  private coordinate = 0;
  private readonly vertex = new Float64Array(3);
  private readonly vertices: ObjVertices;
  private corners = 0;
  private first = 0;
  private previous = 0;
  private faceLine = 0;
  private readonly batch = new Float64Array(9 * BATCH_TRIANGLES);
  private readonly batchIds = new Int32Array(3 * BATCH_TRIANGLES);
  private batchCount = 0;
  private readonly sink: TriangleSink;
  /** The fast path, and whether the current range is in its memory. */
  private readonly fast: ObjEngine | null;
  private loaded = false;

  constructor(sink: TriangleSink, options: ObjOptions) {
    this.sink = sink;
    this.fast = options.fastPath === false ? null : new ObjEngine();
    // A big OBJ has roughly one vertex per 70-90 bytes (a v line and two f lines): sized for 64, since
    // running out means a copy of the whole table and fresh pages for it, while an unused tail is
    // never touched.
    const expected = Math.min(4_000_000, Math.floor((options.totalSize ?? 0) / 64));
    this.vertices = new ObjVertices(options.weld !== false, expected);
  }

  skippingLine(): boolean {
    return this.state === SKIP_LINE;
  }

  currentLine(): number {
    return this.line;
  }

  skipsOverlongToken(first: number): boolean {
    // Same answers as parseRange gives for a '#' token.
    if (first !== HASH) return false;
    if (this.state === VERTEX) this.missingCoordinates();
    if (this.state === FACE) this.endFace();
    this.state = SKIP_LINE;
    return true;
  }

  parseRange(buf: Uint8Array, start: number, end: number): void {
    let i = start;
    let state = this.state;
    let line = this.line;
    this.loaded = false;
    while (i < end) {
      const c = buf[i]!;
      if (c <= 32) {
        if (c === 10) {
          this.line = line;
          if (state === VERTEX) this.missingCoordinates();
          if (state === FACE) this.endFace();
          state = LINE_START;
          line++;
        }
        i++;
        continue;
      }
      if (state === SKIP_LINE) {
        while (i < end && buf[i] !== 10) i++;
        continue;
      }
      if (c === BACKSLASH) {
        // A line continuation joins the next line: the statement goes on.
        const next = buf[i + 1];
        if (next === 10) {
          i += 2;
          line++;
          continue;
        }
        if (next === 13 && buf[i + 2] === 10) {
          i += 3;
          line++;
          continue;
        }
      }
      if (state === FACE) {
        if (c === HASH) {
          this.line = line;
          this.endFace();
          state = SKIP_LINE;
          continue;
        }
        i = this.corner(buf, i, line);
        continue;
      }
      if (state === VERTEX) {
        if (c === HASH) {
          this.line = line;
          this.missingCoordinates();
        }
        const j = parseDecimal(buf, i);
        if (j < 0 || j - i > MAX_TOKEN) this.badNumber(buf, i, j, line);
        const v = parsedNumber[0]!;
        if (!(Math.abs(v) <= MAX_COORDINATE)) throw badCoordinate(v, `on line ${line}`, latin1(buf, i, j));
        this.vertex[this.coordinate] = v;
        if (++this.coordinate === 3) {
          this.vertices.add(this.vertex[0]!, this.vertex[1]!, this.vertex[2]!);
          // A w component or vertex colours may follow: not needed.
          state = SKIP_LINE;
        }
        i = j;
        continue;
      }
      // LINE_START: the fast path takes plain `v` and `f` lines whole; anything else, and any
      // line it does not like, goes through the token state machine below.
      this.line = line;
      const next = this.fastLines(buf, i, end);
      if (next !== i) {
        i = next;
        line = this.line;
        continue;
      }
      let j = i + 1;
      while (buf[j]! > 32) j++;
      if (j - i > MAX_TOKEN && c !== HASH) throw tokenTooLong(line);
      if (j === i + 1 && c === 118) {
        state = VERTEX;
        this.coordinate = 0;
      } else if (j === i + 1 && c === 102) {
        state = FACE;
        this.corners = 0;
        this.faceLine = line;
      } else {
        if (j === i + 1 && (c === 108 || c === 112)) this.sawLinesOrPoints = true;
        state = SKIP_LINE;
      }
      i = j;
    }
    this.state = state;
    this.line = line;
  }

  end(): void {
    if (this.state === VERTEX) this.missingCoordinates();
    if (this.state === FACE) this.endFace();
    this.state = LINE_START;
    if (this.batchCount > 0) this.sink.triangles(this.batch, this.batchIds, this.batchCount);
    this.batchCount = 0;
    this.vertices.flush();
    this.sink.vertexPositions?.(this.vertices.coordinates());
    this.fast?.release();
  }

  /**
   * Takes consecutive plain `v x y z` and `f a b c ...` lines (and skips comments, `vt` and `vn`) that
   * end within the range, through the fast path. Stops at the start of the first other line and returns
   * its position; nothing of that line has been taken.
   */
  private fastLines(buf: Uint8Array, start: number, end: number): number {
    const fast = this.fast;
    if (fast === null) return start;
    if (!this.loaded) {
      fast.load(buf, start, end);
      this.loaded = true;
    }
    let i = start;
    const vertices = this.vertices;
    do {
      fast.readLines(i, end, vertices.count);
      vertices.addAll(fast.vertices, fast.vertexCount);
      const faces = fast.faces;
      for (let w = 0; w < fast.faceWords; ) {
        const n = faces[w]!;
        this.fan(faces, w + 1, n);
        w += n + 1;
      }
      this.line += fast.lines;
      i = fast.end;
    } while (fast.full && i < end);
    return i;
  }

  /** Emits the triangles of a face given by vertex numbers (0-based) at corners[from, from + n), as a fan. */
  private fan(corners: Int32Array, from: number, n: number): void {
    // emit() written out: the call was a tenth of the time on a big file.
    const vertices = this.vertices;
    vertices.toIds(corners, from, n);
    // After the ids: welding them may have grown the table.
    const coords = vertices.coordinates();
    const batch = this.batch;
    const ids = this.batchIds;
    let t = this.batchCount;
    const a = corners[from]!;
    const ax = coords[3 * a]!;
    const ay = coords[3 * a + 1]!;
    const az = coords[3 * a + 2]!;
    let b = corners[from + 1]!;
    for (let k = from + 2; k < from + n; k++) {
      const c = corners[k]!;
      ids[3 * t] = a;
      ids[3 * t + 1] = b;
      ids[3 * t + 2] = c;
      const q = 9 * t;
      batch[q] = ax;
      batch[q + 1] = ay;
      batch[q + 2] = az;
      batch[q + 3] = coords[3 * b]!;
      batch[q + 4] = coords[3 * b + 1]!;
      batch[q + 5] = coords[3 * b + 2]!;
      batch[q + 6] = coords[3 * c]!;
      batch[q + 7] = coords[3 * c + 1]!;
      batch[q + 8] = coords[3 * c + 2]!;
      b = c;
      if (++t === BATCH) {
        this.sink.triangles(batch, ids, t);
        t = 0;
      }
    }
    this.batchCount = t;
  }

  /** Reads one face corner token at i; returns the position after it. */
  private corner(buf: Uint8Array, start: number, line: number): number {
    let i = start;
    let c = buf[i]!;
    let negative = false;
    if (c === MINUS) {
      negative = true;
      c = buf[++i]!;
    } else if (c === PLUS) {
      c = buf[++i]!;
    }
    const digits = i;
    let index = 0;
    while (c >= 48 && c <= 57) {
      if (index < 1e12) index = index * 10 + (c - 48);
      c = buf[++i]!;
    }
    if (i === digits) this.badCorner(buf, start, line);
    // Texture and normal indices are not needed: skip `/t`, `/t/n`, `//n` after checking their form.
    if (c === SLASH) {
      for (let slashes = 0; c === SLASH && slashes < 2; slashes++) {
        c = buf[++i]!;
        if (c === MINUS || c === PLUS) c = buf[++i]!;
        while (c >= 48 && c <= 57) c = buf[++i]!;
      }
    }
    if (!(c <= 32)) this.badCorner(buf, start, line);
    if (i - start > MAX_TOKEN) throw tokenTooLong(line);
    const count = this.vertices.count;
    let v: number;
    if (negative) {
      v = count - index;
      if (index === 0) this.zeroIndex(line);
      if (v < 0) this.outOfRange(-index, line);
    } else {
      if (index === 0) this.zeroIndex(line);
      if (index > count) this.outOfRange(index, line);
      v = index - 1;
    }
    const id = this.vertices.id(v);
    const n = this.corners++;
    if (n === 0) {
      this.first = id;
    } else if (n >= 2) {
      this.emit(this.first, this.previous, id);
    }
    this.previous = id;
    return i;
  }

  private emit(a: number, b: number, c: number): void {
    const coords = this.vertices.coordinates();
    const batch = this.batch;
    const t = this.batchCount;
    const ids = this.batchIds;
    ids[3 * t] = a;
    ids[3 * t + 1] = b;
    ids[3 * t + 2] = c;
    const k = 9 * t;
    batch[k] = coords[3 * a]!;
    batch[k + 1] = coords[3 * a + 1]!;
    batch[k + 2] = coords[3 * a + 2]!;
    batch[k + 3] = coords[3 * b]!;
    batch[k + 4] = coords[3 * b + 1]!;
    batch[k + 5] = coords[3 * b + 2]!;
    batch[k + 6] = coords[3 * c]!;
    batch[k + 7] = coords[3 * c + 1]!;
    batch[k + 8] = coords[3 * c + 2]!;
    if (t + 1 === BATCH_TRIANGLES) {
      this.sink.triangles(batch, ids, BATCH_TRIANGLES);
      this.batchCount = 0;
    } else {
      this.batchCount = t + 1;
    }
  }

  private endFace(): void {
    if (this.corners < 3) {
      const n = this.corners;
      throw new MeshError(
        'obj-face-too-small',
        `OBJ face on line ${this.faceLine} has ${n === 0 ? 'no vertices' : n === 1 ? 'only 1 vertex' : 'only 2 vertices'}; a face needs at least 3.`,
      );
    }
    this.corners = 0;
  }

  private missingCoordinates(): never {
    throw new MeshError(
      'obj-syntax',
      `OBJ vertex on line ${this.line} has ${this.coordinate} coordinate${this.coordinate === 1 ? '' : 's'}; it needs x, y and z.`,
    );
  }

  private badNumber(buf: Uint8Array, i: number, j: number, line: number): never {
    const stop = tokenEnd(buf, i);
    if (stop - i > MAX_TOKEN) throw tokenTooLong(line);
    if (j === NOT_FINITE) throw badCoordinate(Number.NaN, `on line ${line}`);
    throw new MeshError(
      'bad-number',
      `OBJ vertex on line ${line} has ${quoteToken(latin1(buf, i, Math.min(stop, i + 64)))} where a number was expected.`,
    );
  }

  private badCorner(buf: Uint8Array, i: number, line: number): never {
    const stop = tokenEnd(buf, i);
    if (stop - i > MAX_TOKEN) throw tokenTooLong(line);
    throw new MeshError(
      'obj-syntax',
      `OBJ face on line ${line} has ${quoteToken(latin1(buf, i, Math.min(stop, i + 64)))} where a vertex index was expected.`,
    );
  }

  private zeroIndex(line: number): never {
    throw new MeshError(
      'obj-index-zero',
      `OBJ face on line ${line} refers to vertex 0, but OBJ vertices are numbered from 1.`,
    );
  }

  private outOfRange(index: number, line: number): never {
    const n = this.vertices.count;
    const shown = Math.abs(index) >= 1e12 ? `${index < 0 ? '-' : ''}${'9'.repeat(12)}...` : String(index);
    throw new MeshError(
      'obj-index-out-of-range',
      `OBJ face on line ${line} refers to vertex ${shown}, but only ${n} ${n === 1 ? 'vertex is' : 'vertices are'} defined.`,
    );
  }
}

export interface ObjParser extends ChunkParser {
  /** True if the file had `l` or `p` statements (lines, points). */
  sawLinesOrPoints(): boolean;
}

export function createObjParser(sink: TriangleSink, options: ObjOptions = {}): ObjParser {
  const ranges = new ObjRanges(sink, options);
  const chunker = new TextChunker(ranges);
  return {
    push: (chunk) => chunker.push(chunk),
    finish: () => chunker.finish(),
    sawLinesOrPoints: () => ranges.sawLinesOrPoints,
  };
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new ObjRanges({ triangles() {} }, { fastPath: false }));
