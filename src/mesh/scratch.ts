// Big temporary arrays an analysis lends itself from the thread's last one. A fresh typed array is memory
// the kernel hands over page by page at its first touch, zeroed: ~25 ms per 100 MB on a usual machine,
// ~300 ms on the VM of issue #27's second bench machine, where a 1,000,000-triangle 3MF's weld table and
// placed vertices (~26 MB) took ~80 ms of its ~300 ms analysis before a single vertex was welded. Memory
// the thread touched before costs nothing but what is written to it. Lent only within a scope
// (scratchScope, synchronous): everything lent there goes back when it ends, so nothing lent may outlive it
// (no result, no field of an object that does). Outside a scope the same calls make fresh arrays.

/** What a thread keeps between scopes, at most: the rest goes to the collector. */
const MAX_KEPT_BYTES = 96 * 1024 * 1024;

type Kind = 'int32' | 'float64' | 'shared-int32';

interface Kept {
  kind: Kind;
  array: Int32Array | Float64Array;
}

/** Arrays free to lend, and those lent in the scope running now. */
let free: Kept[] = [];
let lent: Kept[] = [];
let depth = 0;

/** Runs fn with scratch arrays to lend; they all come back when it returns (or throws). */
export function scratchScope<T>(fn: () => T): T {
  depth++;
  try {
    return fn();
  } finally {
    if (--depth === 0) giveBack();
  }
}

/** An Int32Array of length: zeroed if asked, else holding whatever it held (write before reading). */
export function scratchInt32(length: number, zeroed: boolean): Int32Array {
  return lend('int32', length, zeroed) as Int32Array;
}

/** An Int32Array of length over shared memory, holding whatever it held (write before reading). */
export function scratchSharedInt32(length: number): Int32Array {
  return lend('shared-int32', length, false) as Int32Array;
}

/** A Float64Array of length, holding whatever it held (write before reading). */
export function scratchFloat64(length: number): Float64Array {
  return lend('float64', length, false) as Float64Array;
}

function make(kind: Kind, length: number): Int32Array | Float64Array {
  if (kind === 'float64') return new Float64Array(length);
  if (kind === 'shared-int32') return new Int32Array(new SharedArrayBuffer(4 * length));
  return new Int32Array(length);
}

function lend(kind: Kind, length: number, zeroed: boolean): Int32Array | Float64Array {
  // Outside a scope, or a length no array can have (which throws, as the constructor does).
  if (depth === 0 || !(length >= 0)) return make(kind, length);
  // The smallest free one that is long enough.
  let best = -1;
  for (let k = 0; k < free.length; k++) {
    const a = free[k]!;
    if (
      a.kind === kind &&
      a.array.length >= length &&
      (best < 0 || a.array.length < free[best]!.array.length)
    )
      best = k;
  }
  if (best < 0) {
    const array = make(kind, length);
    lent.push({ kind, array });
    return array;
  }
  const kept = free[best]!;
  free.splice(best, 1);
  lent.push(kept);
  const array = kept.array.subarray(0, length);
  if (zeroed) array.fill(0);
  return array;
}

function giveBack(): void {
  // The biggest are kept first: they cost the most to make again.
  const all = [...free, ...lent].sort((a, b) => b.array.byteLength - a.array.byteLength);
  free = [];
  lent = [];
  let bytes = 0;
  for (const a of all) {
    if (bytes + a.array.byteLength > MAX_KEPT_BYTES) continue;
    bytes += a.array.byteLength;
    free.push(a);
  }
}

/** Bytes kept for the next scope (tests). */
export function scratchKeptBytes(): number {
  return free.reduce((sum, a) => sum + a.array.byteLength, 0);
}

/**
 * Arrays whose owner has outgrown them for good (nothing refers to them any more: a growing array's last
 * one), for the next owner that grows through the same length. A 1,000,000-triangle 3MF part's vertices
 * and triangles double ~16 times on their way to ~24 MB, through ~24 MB of arrays dropped on the way:
 * fresh pages for every upload, unless the last upload's are taken again. Whoever takes one owns it.
 */
const outgrown = new Map<string, (Int32Array | Float64Array)[]>();
let outgrownBytes = 0;
/** What a thread keeps of them, at most (a 1,000,000-triangle part's ~24 MB, with room). */
const MAX_OUTGROWN_BYTES = 32 * 1024 * 1024;
/** Smaller ones cost little to make again. */
const MIN_OUTGROWN_BYTES = 64 * 1024;

const outgrownKey = (array: Int32Array | Float64Array, length: number) =>
  `${array instanceof Float64Array ? 'float64' : 'int32'}:${length}`;

/** An array like `like` (its type) of exactly length that an owner outgrew, if one is kept; else null. */
export function takeOutgrown<T extends Int32Array | Float64Array>(like: T, length: number): T | null {
  const list = outgrown.get(outgrownKey(like, length));
  const array = list?.pop();
  if (array === undefined) return null;
  outgrownBytes -= array.byteLength;
  return array as T;
}

/** Gives up an array for good: kept for takeOutgrown, within the thread's limit (a whole array only). */
export function giveOutgrown(array: Int32Array | Float64Array): void {
  if (
    array.byteLength < MIN_OUTGROWN_BYTES ||
    array.byteOffset !== 0 ||
    array.byteLength !== array.buffer.byteLength ||
    array.buffer instanceof SharedArrayBuffer ||
    outgrownBytes + array.byteLength > MAX_OUTGROWN_BYTES
  )
    return;
  const key = outgrownKey(array, array.length);
  const list = outgrown.get(key);
  if (list) list.push(array);
  else outgrown.set(key, [array]);
  outgrownBytes += array.byteLength;
}
