// A byte-level decimal parser: the text formats are mostly numbers, and reading them straight from
// the bytes with an integer mantissa is several times faster than slicing strings for parseFloat.
// Results are exactly those of Number(text): the fast path multiplies or divides an exact integer
// mantissa (< 2^53) by an exact power of ten (<= 1e22), a single correctly rounded operation
// (Clinger's fast path); anything else is handed to Number() on the token's text.

/** The value of the last successful parseDecimal (a shared slot: no allocation per number). */
export const parsedNumber = new Float64Array(1);

/** parseDecimal's answer for a token that is not a number. */
export const NOT_A_NUMBER = -1;
/** parseDecimal's answer for nan / inf / 1.#IND style tokens. */
export const NOT_FINITE = -2;

const POW10 = new Float64Array(23);
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POW10[k] = p;

/**
 * Parses the number starting at pos. The token ends at the first byte <= 32; callers guarantee
 * such a byte exists before the end of buf. Returns the position after the token and stores the
 * value in parsedNumber[0], or NOT_A_NUMBER / NOT_FINITE.
 */
export function parseDecimal(buf: Uint8Array, pos: number): number {
  let i = pos;
  let c = buf[i]!;
  let neg = false;
  if (c === 45) {
    neg = true;
    c = buf[++i]!;
  } else if (c === 43) {
    c = buf[++i]!;
  }
  const digitsStart = i;
  // All digits go into one integer mantissa; with at most 15 of them it is exact (< 2^53). While
  // it fits 31 bits V8 even keeps it a small integer. Longer mantissas take the slow path.
  let m = 0;
  while (c >= 48 && c <= 57) {
    m = m * 10 + (c - 48);
    c = buf[++i]!;
  }
  let digits = i - digitsStart;
  let e = 0;
  if (c === 46) {
    c = buf[++i]!;
    const fracStart = i;
    while (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      c = buf[++i]!;
    }
    e = fracStart - i;
    digits += i - fracStart;
  }
  if (digits === 0) return classifyWord(buf, pos);
  if ((c | 32) === 101) {
    c = buf[++i]!;
    let expNeg = false;
    if (c === 45) {
      expNeg = true;
      c = buf[++i]!;
    } else if (c === 43) {
      c = buf[++i]!;
    }
    const expStart = i;
    let x = 0;
    while (c >= 48 && c <= 57) {
      // Clamp: 1e999999999 is simply out of range, it must not wrap around.
      if (x < 100000) x = x * 10 + (c - 48);
      c = buf[++i]!;
    }
    if (i === expStart) return classifyWord(buf, pos);
    e += expNeg ? -x : x;
  }
  if (!(c <= 32)) return classifyWord(buf, pos);
  let v: number;
  if (digits <= 15 && e >= -22 && e <= 22) {
    v = e < 0 ? m / POW10[-e]! : m * POW10[e]!;
  } else if (m === 0) {
    v = 0;
  } else {
    v = digits <= 19 && e < 0 && e >= -22 ? longMantissa(buf, digitsStart, -e) : Number.NaN;
    if (Number.isNaN(v)) v = Number(latin1(buf, digitsStart, i));
  }
  parsedNumber[0] = neg ? -v : v;
  return i;
}

// 16 to 19 digits (as exporters write doubles: 17 significant digits): the mantissa M = H x 10^r + L is
// exact as a double-double (H: the first 15 digits, L: the rest), divided by 10^f with one correction
// step. The sum of the quotient and its correction is the correctly rounded value unless the exact
// quotient lies within the correction's error of a midpoint between two doubles (about one number in
// 2^40), or the result is a power of two (the spacing halves below it): then Number() decides.

const SPLIT = 134217729; // 2^27 + 1 (Dekker)
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** ULP[k]: the spacing of doubles whose biased exponent is k. */
const ULP = new Float64Array(2047);
for (let k = 1; k < 2047; k++) ULP[k] = 2 ** (k - 1075);

/** The exact a x b is p + twoProductError(a, b, p). */
function twoProductError(a: number, b: number, p: number): number {
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/** The digits at start (with at most one '.') over 10^f, correctly rounded; NaN if unsure. */
function longMantissa(buf: Uint8Array, start: number, f: number): number {
  let h = 0;
  let l = 0;
  let seen = 0;
  let low = 0;
  for (let i = start; ; i++) {
    const c = buf[i]!;
    if (c === 46) continue;
    if (c < 48 || c > 57) break;
    if (seen++ < 15) h = h * 10 + (c - 48);
    else {
      l = l * 10 + (c - 48);
      low++;
    }
  }
  return exactQuotient(h, POW10[low]!, l, f);
}

/** (h x r + l) / 10^f correctly rounded, for h < 2^53, r a power of ten and l < r; NaN if unsure. The WebAssembly
 * fast paths do the same (wasm/text-fast.as.ts): a change to one is a change to both. */
function exactQuotient(h: number, r: number, l: number, f: number): number {
  // M = h x r + l, exactly: s + t.
  const p = h * r;
  const pe = twoProductError(h, r, p);
  const sum = p + l;
  const back = sum - p;
  const t0 = p - (sum - back) + (l - back) + pe;
  const s = sum + t0;
  const t = t0 - (s - sum);
  const P = POW10[f]!;
  const q1 = s / P;
  const qp = q1 * P;
  const rem = s - qp - twoProductError(q1, P, qp) + t;
  const q2 = rem / P;
  const v = q1 + q2;
  const tail = q2 - (v - q1);
  bits[0] = v;
  const hi = words[1]!;
  if ((hi & 0xfffff) === 0 && words[0] === 0) return Number.NaN;
  const half = ULP[(hi >>> 20) & 0x7ff]! / 2;
  const margin = Math.abs(q2) * 2 ** -48 + Math.abs(v) * 2 ** -100;
  return half - Math.abs(tail) > margin ? v : Number.NaN;
}

/** Position of the first byte <= 32 at or after pos (the end of a token). */
export function tokenEnd(buf: Uint8Array, pos: number): number {
  let i = pos;
  const n = buf.length;
  while (i < n && buf[i]! > 32) i++;
  return i;
}

/** Tells a non-finite word (nan, -inf, 1.#IND, 1.#QNAN) from plain garbage. */
function classifyWord(buf: Uint8Array, pos: number): number {
  const end = tokenEnd(buf, pos);
  if (end - pos > 64) return NOT_A_NUMBER;
  const word = latin1(buf, pos, end).toLowerCase();
  return /^[+-]?(nan(\(\w*\))?|inf|infinity|\d*\.?\d*#(ind|inf|qnan|snan)\d*)$/.test(word)
    ? NOT_FINITE
    : NOT_A_NUMBER;
}

/** Bytes as a string, one char per byte (tokens and messages). */
export function latin1(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]!);
  return s;
}
