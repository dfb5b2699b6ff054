// AssemblyScript, compiled to WebAssembly by `npm run build:wasm` (see text-engine.ts, which loads it).
//
// The fast paths of the text formats: plain ASCII STL facets and plain OBJ `v` / `f` lines, read eight
// bytes at a time (whitespace, keywords and digit runs found with bit masks, eight digits turned into an
// integer with three multiplications). A JavaScript loop that looks at every byte cannot go below
// ~2 ns a byte on a busy machine; this reads the same text at a fraction of that.
//
// The contract is the one the JavaScript fast paths had: accept only what the state machines in
// stl-ascii.ts and obj.ts accept, read it to the same numbers (bit for bit those of Number(text)), and
// stop before anything else, which the state machines then read or explain. The text lies in this
// module's memory, copied there by text-engine.ts, with at least 16 readable bytes after its end.

// ---- Bytes, eight at a time -------------------------------------------------------------------------

const LOW7: u64 = 0x7f7f7f7f7f7f7f7f;
const HIGH: u64 = 0x8080808080808080;
const ZEROS: u64 = 0x3030303030303030;

/** 0x80 in every byte above 32 (a token's byte; the others are whitespace and controls). */
function tokenBytes(x: u64): u64 {
  return (((x & LOW7) + 0x5f5f5f5f5f5f5f5f) | x) & HIGH;
}

/** 0x80 in every byte that is a newline. */
function newlineBytes(x: u64): u64 {
  const y = x ^ 0x0a0a0a0a0a0a0a0a;
  return ~(((y & LOW7) + LOW7) | y | LOW7);
}

/** 0x80 in every byte that is not a digit. */
function nonDigits(x: u64): u64 {
  const t = x ^ ZEROS;
  return (((t & LOW7) + 0x7676767676767676) | t) & HIGH;
}

/** Eight digit bytes (the first in the lowest byte) as their integer value. */
function eightDigits(x: u64): u64 {
  let v = x - ZEROS;
  v = v * 10 + (v >> 8);
  return (
    ((v & 0x000000ff000000ff) * (100 + (u64(1000000) << 32)) +
      ((v >> 16) & 0x000000ff000000ff) * (1 + (u64(10000) << 32))) >>
    32
  );
}

const POW10 = memory.data<f64>([
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
]);
const POW10_INT = memory.data<u64>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000]);

// ---- Results beside the return value ----------------------------------------------------------------

/** Newlines crossed by skipSpace calls (the callers keep their own count from it). */
let lines: i32 = 0;

/** Skips the whitespace at p (there must be some); the next token's position, or 0 if none before end. */
function skipSpace(p: usize, end: usize): usize {
  const c = load<u8>(p);
  if (c > 32) return 0;
  // One space between two tokens, the usual case: a predictable branch, not a chain of bit operations.
  if (c === 32 && load<u8>(p + 1) > 32) return p + 1 < end ? p + 1 : 0;
  let i = p;
  while (i < end) {
    const x = load<u64>(i);
    const t = tokenBytes(x);
    if (t !== 0) {
      const k = ctz(t) >> 3;
      lines += i32(popcnt(newlineBytes(x) & ((u64(1) << (k << 3)) - 1)));
      i += usize(k);
      return i < end ? i : 0;
    }
    lines += i32(popcnt(newlineBytes(x)));
    i += 8;
  }
  return 0;
}

/** The end of the token at p (its first byte <= 32). */
function tokenEnd(p: usize): usize {
  let i = p;
  let t = tokenBytes(load<u64>(i)) ^ HIGH;
  while (t === 0) {
    i += 8;
    t = tokenBytes(load<u64>(i)) ^ HIGH;
  }
  return i + usize(ctz(t) >> 3);
}

// 16 to 19 digits (doubles written in full): the mantissa M as a double-double s + t, divided by 10^f
// with one correction step, exactly as exactQuotient in number-parser.ts does (see the reasoning there;
// a change to one is a change to both).
const SPLIT: f64 = 134217729;

function twoProductError(a: f64, b: f64, p: f64): f64 {
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/** M / 10^f correctly rounded for M < 10^19 and 1 <= f <= 22; NaN when unsure. */
function exactQuotient(m: u64, f: i32): f64 {
  const s = f64(m);
  const t = f64(i64(m - u64(s)));
  const P = load<f64>(POW10 + usize(f << 3));
  const q1 = s / P;
  const qp = q1 * P;
  const rem = s - qp - twoProductError(q1, P, qp) + t;
  const q2 = rem / P;
  const v = q1 + q2;
  const tail = q2 - (v - q1);
  const bits = reinterpret<u64>(v);
  if ((bits & 0xfffffffffffff) === 0) return NaN;
  const half = reinterpret<f64>(bits & 0x7ff0000000000000) * 1.1102230246251565e-16; // 2^-53
  const margin = Math.abs(q2) * 3.552713678800501e-15 + Math.abs(v) * 7.888609052210118e-31; // 2^-48, 2^-100
  return half - Math.abs(tail) > margin ? v : NaN;
}

/**
 * Reads the number at p and stores it at out; returns its end, or 0 for anything the fast path leaves
 * to the state machines (a '+' sign, more than 19 digits, a long exponent, words, |value| > limit...).
 * The number ends at whitespace (a byte <= 32).
 */
function parseNumber(p: usize, limit: f64, out: usize): usize {
  return readDecimal(p, limit, out, false);
}

/** parseNumber for an XML attribute's value: the number ends at its closing '"' (and nothing else does). */
function quotedNumber(p: usize, limit: f64, out: usize): usize {
  return readDecimal(p, limit, out, true);
}

/** The number reader of both; quoted: the number ends at '"', else at whitespace. */
function readDecimal(p: usize, limit: f64, out: usize, quoted: bool): usize {
  let i = p;
  const negative = load<u8>(i) === 45;
  if (negative) i++;
  // The integer part has one to four digits in most files: a byte loop whose branches predict well.
  const integer = i;
  let m: u64 = 0;
  let d = u32(load<u8>(i)) - 48;
  while (d < 10) {
    m = m * 10 + u64(d);
    d = u32(load<u8>(++i)) - 48;
  }
  let count = i32(i - integer);
  let e: i32 = 0; // the power of ten the mantissa is divided by
  if (load<u8>(i) === 46) {
    // The fraction eight digits at a time: k digits as eight with leading zeros.
    const fraction = ++i;
    // Zeros before the first significant digit (0.000123) add nothing to the mantissa: not counted below.
    if (m === 0) while (load<u8>(i) === 48) i++;
    const significant = i;
    let k: u64 = 8;
    while (k === 8) {
      const x = load<u64>(i);
      k = ctz(nonDigits(x)) >> 3;
      if (k === 0) break;
      const shift = (8 - k) << 3;
      m =
        m * load<u64>(POW10_INT + usize(k << 3)) + eightDigits((x << shift) | (ZEROS & ~(~u64(0) << shift)));
      i += usize(k);
    }
    e = i32(i - fraction);
    count += i32(i - significant);
  }
  // Up to 19 digits the mantissa is exact (it wraps past that, and is not used).
  if (count === 0 || count > 19) return 0;
  let c = load<u8>(i);
  if ((c | 32) === 101) {
    // e+02, e-05: sign and two digits, the usual exponent, in one look.
    const w = load<u32>(i + 1);
    const sign = w & 0xff;
    const d1 = ((w >> 8) & 0xff) - 48;
    const d2 = ((w >> 16) & 0xff) - 48;
    const after = w >> 24;
    if ((sign === 43 || sign === 45) && d1 < 10 && d2 < 10 && (quoted ? after === 34 : after <= 32)) {
      const x = i32(d1 * 10 + d2);
      e = sign === 45 ? e + x : e - x;
      i += 4;
      c = load<u8>(i);
    } else {
      c = load<u8>(++i);
      const expNegative = c === 45;
      if (expNegative || c === 43) c = load<u8>(++i);
      let x: i32 = 0;
      let n: i32 = 0;
      while (c >= 48 && c <= 57 && n < 3) {
        x = x * 10 + i32(c - 48);
        n++;
        c = load<u8>(++i);
      }
      if (n === 0) return 0;
      e = expNegative ? e + x : e - x;
    }
  }
  if (quoted ? c !== 34 : c > 32) return 0;
  let v: f64;
  if (m < u64(1) << 53) {
    // An exact integer mantissa and power of ten: one correctly rounded operation.
    if (e >= 0 && e <= 22) v = f64(m) / load<f64>(POW10 + usize(e << 3));
    else if (e < 0 && e >= -22) v = f64(m) * load<f64>(POW10 + usize(-e << 3));
    else return 0;
  } else {
    if (e < 1 || e > 22) return 0;
    v = exactQuotient(m, e);
    if (isNaN(v)) return 0;
  }
  if (!(Math.abs(v) <= limit)) return 0;
  store<f64>(out, negative ? -v : v);
  return i;
}

// ---- ASCII STL ----------------------------------------------------------------------------------------

// Keywords as little-endian words, compared after lowercasing (| 0x20 on each byte).
const FACET: u64 = 0x7465636166;
const NORMAL: u64 = 0x6c616d726f6e;
const OUTER: u64 = 0x726574756f;
const LOOP: u64 = 0x706f6f6c;
const VERTEX: u64 = 0x786574726576;
const ENDLOOP: u64 = 0x706f6f6c646e65;
const ENDFACET: u64 = 0x7465636166646e65;

/** True if the token at p is the keyword w of n (< 8) letters, in any case. */
function keyword(p: usize, w: u64, n: u32): bool {
  const x = load<u64>(p) | 0x2020202020202020;
  return (x & ((u64(1) << (n << 3)) - 1)) === w && load<u8>(p + n) <= 32;
}

let facetsEnd: usize = 0;
let facetsLines: i32 = 0;

/** Where the last readFacets stopped (after the whitespace of its last facet). */
export function stlEnd(): usize {
  return facetsEnd;
}
/** Newlines the last readFacets crossed. */
export function stlLines(): i32 {
  return facetsLines;
}

/** Reads one facet from the token at p, its coordinates to out; returns its end, or 0 if it is not plain. */
function readFacet(p: usize, end: usize, out: usize, limit: f64, tokenLimit: i32): usize {
  if (!keyword(p, FACET, 5)) return 0;
  let i = skipSpace(p + 5, end);
  if (i === 0 || !keyword(i, NORMAL, 6)) return 0;
  i += 6;
  for (let k = 0; k < 3; k++) {
    i = skipSpace(i, end);
    if (i === 0) return 0;
    const token = i;
    i = tokenEnd(i);
    if (i32(i - token) > tokenLimit) return 0;
  }
  i = skipSpace(i, end);
  if (i === 0 || !keyword(i, OUTER, 5)) return 0;
  i = skipSpace(i + 5, end);
  if (i === 0 || !keyword(i, LOOP, 4)) return 0;
  i += 4;
  for (let k = 0; k < 9; k += 3) {
    i = skipSpace(i, end);
    if (i === 0 || !keyword(i, VERTEX, 6)) return 0;
    i += 6;
    for (let c = 0; c < 3; c++) {
      i = skipSpace(i, end);
      if (i === 0) return 0;
      i = parseNumber(i, limit, out + usize((k + c) << 3));
      if (i === 0) return 0;
    }
  }
  i = skipSpace(i, end);
  if (i === 0 || !keyword(i, ENDLOOP, 7)) return 0;
  i = skipSpace(i + 7, end);
  if (i === 0 || (load<u64>(i) | 0x2020202020202020) !== ENDFACET || load<u8>(i + 8) > 32) return 0;
  return i + 8;
}

/**
 * Reads consecutive `facet normal a b c outer loop vertex x y z (x3) endloop endfacet` (any case, any
 * whitespace) from the token at start, nine coordinates a facet to out, at most max facets. Stops
 * before the first facet that is unusual or not whole before end. Returns the facets read.
 */
export function readFacets(start: usize, end: usize, out: usize, max: i32, limit: f64, tokenLimit: i32): i32 {
  let i = start;
  let facets: i32 = 0;
  lines = 0;
  facetsEnd = start;
  facetsLines = 0;
  while (facets < max) {
    i = readFacet(i, end, out + usize(facets) * 72, limit, tokenLimit);
    if (i === 0) break;
    facets++;
    // Past the whitespace after the facet (a range always ends in whitespace).
    while (i < end && load<u8>(i) <= 32) {
      if (load<u8>(i) === 10) lines++;
      i++;
    }
    facetsEnd = i;
    facetsLines = lines;
    if (i >= end) break;
  }
  return facets;
}

// ---- OBJ ---------------------------------------------------------------------------------------------

/** Longer faces take the state machine, which streams any number of corners. */
const FAST_CORNERS: i32 = 64;

let objEnd: usize = 0;
let objLines: i32 = 0;
let objVertices: i32 = 0;
let objFaceWords: i32 = 0;
let objFull = false;

/** Where the last readObjLines stopped: at the start of the first line it did not take. */
export function objStop(): usize {
  return objEnd;
}
/** Newlines the last readObjLines crossed. */
export function objLineCount(): i32 {
  return objLines;
}
/** Vertices the last readObjLines wrote (x, y, z each). */
export function objVertexCount(): i32 {
  return objVertices;
}
/** Whether the last readObjLines stopped because its output was full (not at a line it does not take). */
export function objOutputFull(): bool {
  return objFull;
}
/** Words the last readObjLines wrote for faces: each face is its corner count, then its corners. */
export function objFaceLength(): i32 {
  return objFaceWords;
}

function isBlank(c: u32): bool {
  return c === 32 || c === 9;
}

/** The position of the next newline at or after p, or 0 if there is none before end. */
function nextNewline(p: usize, end: usize): usize {
  let i = p;
  while (i < end) {
    const n = newlineBytes(load<u64>(i));
    if (n !== 0) {
      const j = i + usize(ctz(n) >> 3);
      return j < end ? j : 0;
    }
    i += 8;
  }
  return 0;
}

/**
 * Reads consecutive `v x y z` and `f a b c ...` lines (plain or a/b/c corners, up to 64), and skips
 * comments, `vt` and `vn` lines, from the line start at start while they end before end. Vertices go to
 * vertexOut (three doubles each, at most maxVertices), faces to faceOut (at most faceWords words).
 * count: the vertices defined before start. Stops at the start of the first other line, or when the
 * output is full. A corner longer than tokenLimit is the state machine's (it refuses it).
 */
export function readObjLines(
  start: usize,
  end: usize,
  count: i32,
  vertexOut: usize,
  maxVertices: i32,
  faceOut: usize,
  faceWords: i32,
  limit: f64,
  tokenLimit: i32,
): void {
  let i = start;
  let line: i32 = 0;
  let vertices: i32 = 0;
  let words: i32 = 0;
  objEnd = start;
  objLines = 0;
  objVertices = 0;
  objFaceWords = 0;
  objFull = false;
  while (i < end) {
    const c = load<u8>(i);
    const after = u32(load<u8>(i + 1));
    let p = i + 2;
    if (c === 118 && isBlank(after)) {
      if (vertices === maxVertices) {
        objFull = true;
        break;
      }
      const o = vertexOut + usize(vertices) * 24;
      let k = 0;
      for (; k < 3; k++) {
        while (isBlank(load<u8>(p))) p++;
        p = parseNumber(p, limit, o + usize(k << 3));
        if (p === 0) break;
      }
      if (k < 3) break;
      let ch = load<u8>(p);
      while (isBlank(ch) || ch === 13) ch = load<u8>(++p);
      if (p >= end || ch !== 10) break;
      vertices++;
    } else if (c === 102 && isBlank(after)) {
      if (faceWords - words <= FAST_CORNERS) {
        objFull = true;
        break;
      }
      const known = count + vertices;
      const head = faceOut + usize(words) * 4;
      let n: i32 = 0;
      let ch = load<u8>(p);
      let ok = true;
      while (true) {
        while (isBlank(ch) || ch === 13) ch = load<u8>(++p);
        if (p >= end) {
          ok = false;
          break;
        }
        if (ch === 10) break;
        if (n === FAST_CORNERS) {
          ok = false;
          break;
        }
        const corner = p;
        const negative = ch === 45;
        if (negative) ch = load<u8>(++p);
        // Up to seven digits at once (more would be over 9,999,999 vertices: the state machine's).
        const x = load<u64>(p);
        const k = ctz(nonDigits(x)) >> 3;
        if (k === 0 || k === 8) {
          ok = false;
          break;
        }
        const shift = (8 - k) << 3;
        const index = i32(eightDigits((x << shift) | (ZEROS & ~(~u64(0) << shift))));
        p += usize(k);
        ch = load<u8>(p);
        for (let slashes = 0; ch === 47 && slashes < 2; slashes++) {
          ch = load<u8>(++p);
          if (ch === 45) ch = load<u8>(++p);
          while (u32(ch) - 48 < 10) ch = load<u8>(++p);
        }
        const v = negative ? known - index : index - 1;
        if (ch > 32 || index === 0 || v < 0 || v >= known || i32(p - corner) > tokenLimit) {
          ok = false;
          break;
        }
        store<i32>(head + usize(4 + n * 4), v);
        n++;
      }
      if (!ok || n < 3) break;
      store<i32>(head, n);
      words += n + 1;
    } else if (c === 35 || (c === 118 && (after === 116 || after === 110) && isBlank(load<u8>(p)))) {
      // Comments, texture coordinates and normals: not needed, skipped to the line's end.
      p = nextNewline(i, end);
      if (p === 0) break;
    } else {
      break;
    }
    // Past the newline, blank space and empty lines before the next statement.
    i = p + 1;
    line++;
    while (i < end && load<u8>(i) <= 32) {
      if (load<u8>(i) === 10) line++;
      i++;
    }
    objEnd = i;
    objLines = line;
    objVertices = vertices;
    objFaceWords = words;
  }
}

// ---- 3MF model XML ------------------------------------------------------------------------------------

// The children of a mesh's <vertices> and <triangles> in their plain form (threemf/fast-path.ts):
// `<vertex x="" y="" z=""/>` and `<triangle v1="" v2="" v3=""/>` (with p1 p2 p3 pid, which the reader
// passes over), attributes in any order after whitespace, values of plain numbers. They are read to the
// numbers the XML reader would give them; the first other thing is left to it.

/** '<vertex' and '<triangl' as little-endian words. */
const VERTEX_TAG: u64 = 0x7865747265763c;
const TRIANGLE_TAG: u64 = 0x6c676e616972743c;
/** '="' as a little-endian half-word. */
const EQUALS_QUOTE: u16 = 0x223d;
/** '"/>' as a little-endian word, and masks of a word's first five bytes. */
const CLOSE_EMPTY: u32 = 0x3e2f22;
const BYTES5: u64 = 0xffffffffff;

let xmlEnd: usize = 0;

/** Where the last readVertices or readTriangles stopped: past the last child it read and its whitespace. */
export function xmlStop(): usize {
  return xmlEnd;
}

function isXmlSpace(c: u32): bool {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipXmlSpace(p: usize): usize {
  let i = p;
  while (isXmlSpace(load<u8>(i))) i++;
  return i;
}

const XYZ = memory.data(24, 8);

/** ' x="', '" y="' and '" z="' as little-endian words. */
const X_OPEN: u32 = 0x223d7820;
const Y_OPEN: u64 = 0x223d792022;
const Z_OPEN: u64 = 0x223d7a2022;

/**
 * The vertex whose tag ends at p, if it has the usual layout (<vertex x="a" y="b" z="c"/>) and ends by end:
 * its numbers to XYZ and the position past it; else 0, and the general loop reads it.
 */
function usualVertex(p: usize, end: usize, limit: f64): usize {
  if (load<u32>(p) !== X_OPEN) return 0;
  let i = quotedNumber(p + 4, limit, XYZ);
  if (i === 0 || (load<u64>(i) & BYTES5) !== Y_OPEN) return 0;
  i = quotedNumber(i + 5, limit, XYZ + 8);
  if (i === 0 || (load<u64>(i) & BYTES5) !== Z_OPEN) return 0;
  i = quotedNumber(i + 5, limit, XYZ + 16);
  if (i === 0 || (load<u32>(i) & 0xffffff) !== CLOSE_EMPTY) return 0;
  i += 3;
  return i > end ? 0 : i;
}

/**
 * Reads consecutive plain <vertex> elements from start while they end before end, at most max: x y z
 * each (in [-limit, limit]) times unit, to out. Returns how many.
 */
export function readVertices(start: usize, end: usize, out: usize, max: i32, limit: f64, unit: f64): i32 {
  let i = skipXmlSpace(start);
  let n: i32 = 0;
  xmlEnd = i;
  while (n < max && i < end) {
    if ((load<u64>(i) & 0xffffffffffffff) !== VERTEX_TAG) break;
    const usual = usualVertex(i + 7, end, limit);
    let whole = usual !== 0;
    i = whole ? usual : i + 7;
    let seen: u32 = 0;
    while (!whole) {
      const before = i;
      i = skipXmlSpace(i);
      const c = load<u8>(i);
      if (c === 47) {
        whole = load<u8>(i + 1) === 62 && seen === 7;
        i += 2;
        break;
      }
      // x, y or z after whitespace, once each.
      const bit: u32 = c === 120 ? 1 : c === 121 ? 2 : c === 122 ? 4 : 0;
      if (i === before || bit === 0 || (seen & bit) !== 0 || load<u16>(i + 1) !== EQUALS_QUOTE) break;
      seen |= bit;
      i = quotedNumber(i + 3, limit, XYZ + usize(ctz(bit) << 3));
      if (i === 0) break;
      i++;
    }
    if (!whole || i > end) break;
    const o = out + usize(n) * 24;
    store<f64>(o, load<f64>(XYZ) * unit);
    store<f64>(o + 8, load<f64>(XYZ + 8) * unit);
    store<f64>(o + 16, load<f64>(XYZ + 16) * unit);
    n++;
    i = skipXmlSpace(i);
    xmlEnd = i;
  }
  return n;
}

const V123 = memory.data(12, 4);

/** ' v1="', '" v2="', '" v3="' and '"/>' as little-endian words: the layout every exporter writes. */
const V1_OPEN: u64 = 0x223d317620;
const V2_OPEN: u64 = 0x223d32762022;
const V3_OPEN: u64 = 0x223d33762022;
const BYTES6: u64 = 0xffffffffffff;

/** The largest index the last readTriangles read (0 if none): the reader checks them against the vertices. */
let largest: u32 = 0;

export function largestIndex(): u32 {
  return largest;
}

function largestOf(a: u32, b: u32, c: u32, d: u32): u32 {
  const ab = a > b ? a : b;
  const cd = c > d ? c : d;
  return ab > cd ? ab : cd;
}

/** How many digits the last shortIndex read: 1 to 7, else 0 (none, or eight or more: the loop's case). */
let indexDigits: usize = 0;

/** The index of 1 to 7 digits at p, eight bytes at a time (indexDigits says how many it had). */
function shortIndex(p: usize): u32 {
  const x = load<u64>(p);
  const k = usize(ctz(nonDigits(x)) >> 3);
  if (k === 0 || k === 8) {
    indexDigits = 0;
    return 0;
  }
  indexDigits = k;
  // The k digits moved up to the word's top, '0's below them: the same integer.
  const shift = (8 - k) << 3;
  return u32(eightDigits((x << u64(shift)) | (ZEROS & ~(~u64(0) << u64(shift)))));
}

/**
 * The triangle whose tag ends at p, if it has the usual layout (<triangle v1="a" v2="b" v3="c"/>, indices of
 * 1 to 7 digits) and ends by end: its indices to out and the position past it; else 0, and the general
 * loop reads it (to the same numbers, or to its refusal).
 */
function usualTriangle(p: usize, end: usize, out: usize): usize {
  if ((load<u64>(p) & BYTES5) !== V1_OPEN) return 0;
  let i = p + 5;
  const a = shortIndex(i);
  i += indexDigits;
  if (indexDigits === 0 || (load<u64>(i) & BYTES6) !== V2_OPEN) return 0;
  i += 6;
  const b = shortIndex(i);
  i += indexDigits;
  if (indexDigits === 0 || (load<u64>(i) & BYTES6) !== V3_OPEN) return 0;
  i += 6;
  const c = shortIndex(i);
  i += indexDigits;
  if (indexDigits === 0 || (load<u32>(i) & 0xffffff) !== CLOSE_EMPTY) return 0;
  i += 3;
  if (i > end) return 0;
  store<u32>(out, a);
  store<u32>(out + 4, b);
  store<u32>(out + 8, c);
  largest = largestOf(largest, a, b, c);
  return i;
}

/**
 * Reads consecutive plain <triangle> elements from start while they end before end, at most max: v1 v2 v3
 * (1 to 9 digits each) to out. Returns how many.
 */
export function readTriangles(start: usize, end: usize, out: usize, max: i32): i32 {
  largest = 0;
  let i = skipXmlSpace(start);
  let n: i32 = 0;
  xmlEnd = i;
  while (n < max && i < end) {
    if (load<u64>(i) !== TRIANGLE_TAG || load<u8>(i + 8) !== 101) break;
    const usual = usualTriangle(i + 9, end, out + usize(n) * 12);
    if (usual !== 0) {
      n++;
      i = skipXmlSpace(usual);
      xmlEnd = i;
      continue;
    }
    i += 9;
    let seen: u32 = 0;
    let whole = false;
    while (true) {
      const before = i;
      i = skipXmlSpace(i);
      const c = load<u8>(i);
      if (c === 47) {
        whole = load<u8>(i + 1) === 62 && (seen & 7) === 7;
        i += 2;
        break;
      }
      // v1 v2 v3 (bits 1 2 4), p1 p2 p3 (8 16 32) or pid (64) after whitespace, once each.
      const k = u32(load<u8>(i + 1)) - 49;
      let bit: u32 = 0;
      let name = i + 2;
      if (k < 3 && (c === 118 || c === 112)) bit = (c === 118 ? 1 : 8) << k;
      else if (c === 112 && load<u16>(i + 1) === 0x6469) {
        bit = 64;
        name = i + 3;
      }
      if (i === before || bit === 0 || (seen & bit) !== 0 || load<u16>(name) !== EQUALS_QUOTE) break;
      seen |= bit;
      let p = name + 2;
      let value: u32 = 0;
      let d = u32(load<u8>(p)) - 48;
      while (d < 10) {
        value = value * 10 + d;
        d = u32(load<u8>(++p)) - 48;
      }
      const digits = p - (name + 2);
      if (digits === 0 || digits > 9 || load<u8>(p) !== 34) break;
      if (bit < 8) store<u32>(V123 + usize(ctz(bit) << 2), value);
      i = p + 1;
    }
    if (!whole || i > end) break;
    const o = out + usize(n) * 12;
    const a = load<u32>(V123);
    const b = load<u32>(V123 + 4);
    const c = load<u32>(V123 + 8);
    store<u32>(o, a);
    store<u32>(o + 4, b);
    store<u32>(o + 8, c);
    largest = largestOf(largest, a, b, c);
    n++;
    i = skipXmlSpace(i);
    xmlEnd = i;
  }
  return n;
}

/** The first byte free for the caller's buffers. */
export function heapBase(): usize {
  return __heap_base;
}

/** Reads the number at p (for tests): its end, or 0 if the fast paths leave it to the state machines. */
export function readNumber(p: usize, limit: f64): usize {
  return parseNumber(p, limit, NUMBER);
}
const NUMBER = memory.data(8, 8);
/** The value readNumber read. */
export function lastValue(): f64 {
  return load<f64>(NUMBER);
}
