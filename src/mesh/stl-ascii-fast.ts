// The fast path of the ASCII STL parser: whole facets written the usual way, straight into the
// triangle batch, with no per-token state changes. It only ever accepts what the state machine in
// stl-ascii.ts accepts, and reads it to the same numbers; anything else (errors included) it
// leaves to that state machine, which explains the problem.

import { MAX_COORDINATE } from './coordinates.ts';
import { parseDecimalFast, parsedNumber } from './number-parser.ts';
import { MAX_TOKEN } from './text-chunker.ts';
import { BATCH_TRIANGLES } from './types.ts';

// Imported bindings cost V8 a load and a check at every use: the hot loop reads local copies.
const COORDINATE_LIMIT = MAX_COORDINATE;
const TOKEN_LIMIT = MAX_TOKEN;
const BATCH = BATCH_TRIANGLES;

/** What readFacets did: facets read, the position after them and their trailing space, newlines crossed. */
export class FastFacets {
  facets = 0;
  end = 0;
  lines = 0;
}

// Whole-token keyword tests for the fast path, unrolled with constant bytes (b | 32 lowercases).
function isFacet(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 102 &&
    (b[i + 1]! | 32) === 97 &&
    (b[i + 2]! | 32) === 99 &&
    (b[i + 3]! | 32) === 101 &&
    (b[i + 4]! | 32) === 116 &&
    b[i + 5]! <= 32
  );
}
function isNormal(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 110 &&
    (b[i + 1]! | 32) === 111 &&
    (b[i + 2]! | 32) === 114 &&
    (b[i + 3]! | 32) === 109 &&
    (b[i + 4]! | 32) === 97 &&
    (b[i + 5]! | 32) === 108 &&
    b[i + 6]! <= 32
  );
}
function isOuter(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 111 &&
    (b[i + 1]! | 32) === 117 &&
    (b[i + 2]! | 32) === 116 &&
    (b[i + 3]! | 32) === 101 &&
    (b[i + 4]! | 32) === 114 &&
    b[i + 5]! <= 32
  );
}
function isLoop(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 108 &&
    (b[i + 1]! | 32) === 111 &&
    (b[i + 2]! | 32) === 111 &&
    (b[i + 3]! | 32) === 112 &&
    b[i + 4]! <= 32
  );
}
function isVertex(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 118 &&
    (b[i + 1]! | 32) === 101 &&
    (b[i + 2]! | 32) === 114 &&
    (b[i + 3]! | 32) === 116 &&
    (b[i + 4]! | 32) === 101 &&
    (b[i + 5]! | 32) === 120 &&
    b[i + 6]! <= 32
  );
}
function isEndloop(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 101 &&
    (b[i + 1]! | 32) === 110 &&
    (b[i + 2]! | 32) === 100 &&
    (b[i + 3]! | 32) === 108 &&
    (b[i + 4]! | 32) === 111 &&
    (b[i + 5]! | 32) === 111 &&
    (b[i + 6]! | 32) === 112 &&
    b[i + 7]! <= 32
  );
}
function isEndfacet(b: Uint8Array, i: number): boolean {
  return (
    (b[i]! | 32) === 101 &&
    (b[i + 1]! | 32) === 110 &&
    (b[i + 2]! | 32) === 100 &&
    (b[i + 3]! | 32) === 102 &&
    (b[i + 4]! | 32) === 97 &&
    (b[i + 5]! | 32) === 99 &&
    (b[i + 6]! | 32) === 101 &&
    (b[i + 7]! | 32) === 116 &&
    b[i + 8]! <= 32
  );
}

/** Newlines crossed by the last skipSpace (a second result, without allocating). */
let spaceLines = 0;

/**
 * Skips the whitespace at i (there must be some); returns the next token's position, or -1 if
 * there is no whitespace at i or no token before end.
 */
function skipSpace(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  let c = buf[i]!;
  if (c > 32) return -1;
  let lines = 0;
  while (c <= 32) {
    if (c === 10) lines++;
    if (++i >= end) return -1;
    c = buf[i]!;
  }
  spaceLines = lines;
  return i;
}

/**
 * Reads consecutive `facet normal a b c outer loop vertex x y z (x3) endloop endfacet` (any case,
 * any whitespace) starting at the token at start, into batch from triangle `first` until the batch
 * is full. Stops before the first facet that is unusual or not whole before end.
 */
export function readFacets(
  buf: Uint8Array,
  start: number,
  end: number,
  batch: Float64Array,
  first: number,
  out: FastFacets,
): void {
  let i = start;
  let lines = 0;
  let facets = 0;
  let done = start;
  let doneLines = 0;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  facet: while (first + facets < BATCH) {
    if (!isFacet(buf, i)) break;
    i = skipSpace(buf, i + 5, end);
    if (i < 0 || !isNormal(buf, i)) break;
    lines += spaceLines;
    i += 6;
    for (let k = 0; k < 3; k++) {
      i = skipSpace(buf, i, end);
      if (i < 0) break facet;
      lines += spaceLines;
      const token = i;
      while (buf[i]! > 32) i++;
      if (i - token > TOKEN_LIMIT) break facet;
    }
    i = skipSpace(buf, i, end);
    if (i < 0 || !isOuter(buf, i)) break;
    lines += spaceLines;
    i = skipSpace(buf, i + 5, end);
    if (i < 0 || !isLoop(buf, i)) break;
    lines += spaceLines;
    i += 4;
    const b = (first + facets) * 9;
    for (let k = 0; k < 9; k += 3) {
      i = skipSpace(buf, i, end);
      if (i < 0 || !isVertex(buf, i)) break facet;
      lines += spaceLines;
      i += 6;
      for (let c = 0; c < 3; c++) {
        i = skipSpace(buf, i, end);
        if (i < 0) break facet;
        lines += spaceLines;
        const j = parseDecimalFast(buf, view, i);
        if (j < 0 || j - i > TOKEN_LIMIT) break facet;
        const v = parsedNumber[0]!;
        if (!(Math.abs(v) <= COORDINATE_LIMIT)) break facet;
        batch[b + k + c] = v;
        i = j;
      }
    }
    i = skipSpace(buf, i, end);
    if (i < 0 || !isEndloop(buf, i)) break;
    lines += spaceLines;
    i = skipSpace(buf, i + 7, end);
    if (i < 0 || !isEndfacet(buf, i)) break;
    lines += spaceLines;
    i += 8;
    facets++;
    // Past the whitespace after the facet (a range always ends in whitespace).
    while (i < end && buf[i]! <= 32) {
      if (buf[i] === 10) lines++;
      i++;
    }
    done = i;
    doneLines = lines;
    if (i >= end) break;
  }
  out.facets = facets;
  out.end = done;
  out.lines = doneLines;
}
