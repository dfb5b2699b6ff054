// ASCII STL: `solid name`, then facets of `facet normal n n n / outer loop / vertex x y z (x3) /
// endloop / endfacet`, then `endsolid name`; several solids may follow each other. Keywords in any
// case, any whitespace and line ends. A token state machine over the bytes: chunk boundaries are
// handled by TextChunker, so every token here is whole.

import { badCoordinate, MAX_COORDINATE } from './coordinates.ts';
import { MeshError, quoteToken } from './errors.ts';
import { keepShape } from './keep-shapes.ts';
import { latin1, NOT_FINITE, parseDecimal, parsedNumber, tokenEnd } from './number-parser.ts';
import { MAX_TOKEN, type RangeParser, TextChunker, tokenTooLong } from './text-chunker.ts';
import { BATCH_TRIANGLES, type ChunkParser, type TriangleSink } from './types.ts';
import { StlEngine } from './wasm/text-engine.ts';

// Parser states: what the next token may be.
const TOP = 0; // solid | facet | endsolid
const SKIP_LINE = 1; // the name after solid / endsolid
const FACET = 2; // normal | outer
const NORMAL_NUMBERS = 3; // three tokens (normals are not needed)
const OUTER = 4; // outer
const LOOP = 5; // loop
const VERTICES = 6; // vertex | endloop
const COORDINATES = 7; // three numbers
const END_FACET = 8; // endfacet

const EXPECTED = [
  "'solid', 'facet' or 'endsolid'",
  'the end of the line',
  "'normal' or 'outer'",
  'a normal',
  "'outer'",
  "'loop'",
  "'vertex' or 'endloop'",
  'a number',
  "'endfacet'",
];

function keyword(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

const W_SOLID = keyword('solid');
const W_ENDSOLID = keyword('endsolid');
const W_FACET = keyword('facet');
const W_NORMAL = keyword('normal');
const W_OUTER = keyword('outer');
const W_LOOP = keyword('loop');
const W_VERTEX = keyword('vertex');
const W_ENDLOOP = keyword('endloop');
const W_ENDFACET = keyword('endfacet');

/** Case-insensitive match of buf[start, end) with a lowercase keyword. */
function is(buf: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((buf[start + k]! | 32) !== word[k]) return false;
  return true;
}

class AsciiStlRanges implements RangeParser {
  line = 1;
  private state = TOP;
  private numbers = 0; // numbers read in the current normal / vertex
  private vertices = 0; // vertices in the current loop
  private facetLine = 1;
  private readonly corner = new Float64Array(9);
  /** The fast path, and the batch of triangles (in its memory, where it writes them). */
  private readonly fast: StlEngine | null;
  private readonly ownBatch: Float64Array | null;
  private batchCount = 0;
  private readonly sink: TriangleSink;

  constructor(sink: TriangleSink, fastPath: boolean) {
    this.sink = sink;
    this.fast = fastPath ? new StlEngine() : null;
    this.ownBatch = fastPath ? null : new Float64Array(9 * BATCH_TRIANGLES);
  }

  private get batch(): Float64Array {
    return this.ownBatch ?? this.fast!.batch;
  }

  skippingLine(): boolean {
    return this.state === SKIP_LINE;
  }

  currentLine(): number {
    return this.line;
  }

  skipsOverlongToken(): boolean {
    return false;
  }

  parseRange(buf: Uint8Array, start: number, end: number): void {
    let i = start;
    let state = this.state;
    let line = this.line;
    let loaded = false;
    while (i < end) {
      const c = buf[i]!;
      if (c <= 32) {
        if (c === 10) {
          line++;
          if (state === SKIP_LINE) state = TOP;
        }
        i++;
        continue;
      }
      if (state === SKIP_LINE) {
        while (i < end && buf[i] !== 10) i++;
        continue;
      }
      if (state === TOP) {
        // The fast path takes whole, well-formed facets; anything else goes through the state
        // machine below, which reads the same tokens the same way or explains the error.
        const fast = this.fast;
        if (fast !== null) {
          if (!loaded) {
            fast.load(buf, i, end);
            loaded = true;
          }
          const facets = fast.readFacets(i, end, this.batchCount);
          if (facets > 0) {
            i = fast.end;
            line += fast.lines;
            this.batchCount += facets;
            if (this.batchCount === BATCH_TRIANGLES) {
              this.sink.triangles(this.batch, null, BATCH_TRIANGLES);
              this.batchCount = 0;
            }
            continue;
          }
        }
      }
      if (state === COORDINATES) {
        const j = parseDecimal(buf, i);
        if (j < 0 || j - i > MAX_TOKEN) this.badNumber(buf, i, j, line);
        const v = parsedNumber[0]!;
        if (!(Math.abs(v) <= MAX_COORDINATE)) throw badCoordinate(v, `on line ${line}`, latin1(buf, i, j));
        this.corner[this.vertices * 3 + this.numbers] = v;
        if (++this.numbers === 3) {
          this.vertices++;
          state = VERTICES;
        }
        i = j;
        continue;
      }
      let j = i + 1;
      while (buf[j]! > 32) j++;
      if (j - i > MAX_TOKEN) throw tokenTooLong(line);
      switch (state) {
        case NORMAL_NUMBERS:
          // Every slicer recomputes normals from the vertices: three tokens, not read.
          if (++this.numbers === 3) state = OUTER;
          break;
        case TOP:
          if (is(buf, i, j, W_FACET)) {
            state = FACET;
            this.facetLine = line;
          } else if (is(buf, i, j, W_SOLID) || is(buf, i, j, W_ENDSOLID)) {
            state = SKIP_LINE;
          } else this.unexpected(buf, i, j, state, line);
          break;
        case FACET:
          if (is(buf, i, j, W_NORMAL)) {
            state = NORMAL_NUMBERS;
            this.numbers = 0;
          } else if (is(buf, i, j, W_OUTER)) {
            state = LOOP;
          } else this.unexpected(buf, i, j, state, line);
          break;
        case OUTER:
          if (is(buf, i, j, W_OUTER)) state = LOOP;
          else this.unexpected(buf, i, j, state, line);
          break;
        case LOOP:
          if (is(buf, i, j, W_LOOP)) {
            state = VERTICES;
            this.vertices = 0;
          } else this.unexpected(buf, i, j, state, line);
          break;
        case VERTICES:
          if (is(buf, i, j, W_VERTEX)) {
            if (this.vertices === 3) this.wrongVertexCount(4);
            state = COORDINATES;
            this.numbers = 0;
          } else if (is(buf, i, j, W_ENDLOOP)) {
            if (this.vertices !== 3) this.wrongVertexCount(this.vertices);
            this.emit();
            state = END_FACET;
          } else this.unexpected(buf, i, j, state, line);
          break;
        case END_FACET:
          if (is(buf, i, j, W_ENDFACET)) state = TOP;
          else this.unexpected(buf, i, j, state, line);
          break;
        default:
          this.unexpected(buf, i, j, state, line);
      }
      i = j;
    }
    this.state = state;
    this.line = line;
  }

  end(): void {
    if (this.state !== TOP && this.state !== SKIP_LINE) {
      throw new MeshError(
        'stl-syntax',
        `This STL file ends in the middle of the facet that starts on line ${this.facetLine}.`,
      );
    }
    if (this.batchCount > 0) this.sink.triangles(this.batch, null, this.batchCount);
    this.batchCount = 0;
    this.fast?.release();
  }

  private emit(): void {
    this.batch.set(this.corner, this.batchCount * 9);
    if (++this.batchCount === BATCH_TRIANGLES) {
      this.sink.triangles(this.batch, null, BATCH_TRIANGLES);
      this.batchCount = 0;
    }
  }

  private badNumber(buf: Uint8Array, i: number, j: number, line: number): never {
    const stop = tokenEnd(buf, i);
    if (stop - i > MAX_TOKEN) throw tokenTooLong(line);
    if (j === NOT_FINITE) throw badCoordinate(Number.NaN, `on line ${line}`);
    throw new MeshError(
      'bad-number',
      `This STL file has ${quoteToken(latin1(buf, i, stop))} on line ${line} where a number was expected.`,
    );
  }

  private unexpected(buf: Uint8Array, i: number, j: number, state: number, line: number): never {
    throw new MeshError(
      'stl-syntax',
      `This STL file has ${quoteToken(latin1(buf, i, Math.min(j, i + 64)))} on line ${line} where ${EXPECTED[state]} was expected.`,
    );
  }

  private wrongVertexCount(count: number): never {
    throw new MeshError(
      'stl-syntax',
      `The facet on line ${this.facetLine} of this STL file has ${count === 4 ? 'more than 3' : count} vertices; a facet needs exactly 3.`,
    );
  }
}

/** fastPath: false leaves every facet to the state machine (tests compare the two). */
export function createAsciiStlParser(sink: TriangleSink, options: { fastPath?: boolean } = {}): ChunkParser {
  return new TextChunker(new AsciiStlRanges(sink, options.fastPath !== false));
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new AsciiStlRanges({ triangles() {} }, false));
