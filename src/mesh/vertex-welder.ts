// Gives every distinct position one id ("welding" an STL's triangle soup into a mesh) with an
// open-addressing hash over typed arrays: no JS objects per vertex, memory ~ 28 bytes a vertex.
// The hash is seeded per instance so that crafted files cannot force long probe chains.

import { keepShape } from './keep-shapes.ts';

const CACHE_SIZE = 4096;
const CACHE_MASK = CACHE_SIZE - 1;
/** Float32Welder's cache: 16-byte lines, 256 KiB, which holds a few rows of a finely meshed model. */
const F32_CACHE_SIZE = 16384;
const F32_CACHE_MASK = F32_CACHE_SIZE - 1;
/** Float32Welder's cache entries at or above this wait for a lookup in the batch (ids stay below). */
const PENDING = 0x80000000;

const bits = new Float64Array(3);
const words = new Uint32Array(bits.buffer);

function hashPosition(x: number, y: number, z: number, seed: number): number {
  // + 0 turns -0 into 0 so that both weld together.
  bits[0] = x + 0;
  bits[1] = y + 0;
  bits[2] = z + 0;
  let h = Math.imul(words[0]! ^ seed, 0x9e3779b1);
  h = Math.imul(h ^ words[1]! ^ (h >>> 15), 0x85ebca77);
  h = Math.imul(h ^ words[2]! ^ (h >>> 13), 0xc2b2ae3d);
  h = Math.imul(h ^ words[3]! ^ (h >>> 16), 0x9e3779b1);
  h = Math.imul(h ^ words[4]! ^ (h >>> 15), 0x85ebca77);
  h = Math.imul(h ^ words[5]! ^ (h >>> 13), 0xc2b2ae3d);
  return h ^ (h >>> 16);
}

export class VertexWelder {
  /** x, y, z of vertex id at 3 * id. */
  coords: Float64Array;
  count = 0;
  private table: Int32Array; // id + 1, 0 = empty
  private mask: number;
  private readonly seed: number;
  private readonly cacheIds = new Int32Array(CACHE_SIZE);
  private hashes = new Int32Array(0);
  /** Keeps weldAll's touching loads from being optimised away. */
  touched = 0;
  private readonly cacheXyz = new Float64Array(3 * CACHE_SIZE);

  /** knownVertices: at least this many will come (a 3MF mesh's vertex count): no growing up to there. */
  constructor(expectedVertices = 1024, knownVertices = 0) {
    let size = 1024;
    while (size < expectedVertices * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    // Coordinates grow as needed (a sequential copy); only the table is sized for the guess.
    this.coords = new Float64Array(
      3 * Math.max(256, knownVertices, Math.min(expectedVertices >>> 2, size >>> 1)),
    );
    this.seed = (Math.random() * 0x100000000) | 1;
  }

  /** The id of the position, added if new. */
  weld(x: number, y: number, z: number): number {
    const h = hashPosition(x, y, z, this.seed);
    // Most corners repeat a vertex seen a few faces earlier: a small cache answers them without
    // touching the big table (a cache miss each).
    const line = (h >>> 12) & CACHE_MASK;
    const cached = this.cacheIds[line]!;
    const cacheXyz = this.cacheXyz;
    if (
      cached !== 0 &&
      cacheXyz[3 * line] === x &&
      cacheXyz[3 * line + 1] === y &&
      cacheXyz[3 * line + 2] === z
    ) {
      return cached - 1;
    }
    const id = this.lookup(x, y, z, h);
    this.cacheIds[line] = id + 1;
    cacheXyz[3 * line] = x;
    cacheXyz[3 * line + 1] = y;
    cacheXyz[3 * line + 2] = z;
    return id;
  }

  /**
   * Welds n positions (x, y, z each, in xyz) into out from index at, without the cache (for OBJ
   * v lines, which rarely repeat). All hashes are computed first and their table slots touched,
   * so the batch's cache misses overlap instead of coming one after another.
   */
  weldAll(xyz: Float64Array, n: number, out: Int32Array, at: number): void {
    while ((this.count + n) * 2 > this.mask) this.growTable();
    if (this.hashes.length < n) this.hashes = new Int32Array(n);
    const hashes = this.hashes;
    const table = this.table;
    const mask = this.mask;
    for (let k = 0; k < n; k++)
      hashes[k] = hashPosition(xyz[3 * k]!, xyz[3 * k + 1]!, xyz[3 * k + 2]!, this.seed);
    // A loop this short keeps many of the loads in flight at once.
    let touched = 0;
    for (let k = 0; k < n; k++) touched |= table[hashes[k]! & mask]!;
    this.touched = touched;
    for (let k = 0; k < n; k++)
      out[at + k] = this.lookup(xyz[3 * k]!, xyz[3 * k + 1]!, xyz[3 * k + 2]!, hashes[k]!);
  }

  /**
   * weldAll for the positions at 3 * index[k] of xyz (from <= k < to), each id written to out[index[k]]:
   * a 3MF mesh's used vertices, in their order of first use.
   */
  weldIndexed(xyz: Float64Array, index: Int32Array, from: number, to: number, out: Int32Array): void {
    const n = to - from;
    while ((this.count + n) * 2 > this.mask) this.growTable();
    if (this.hashes.length < n) this.hashes = new Int32Array(n);
    const hashes = this.hashes;
    const seed = this.seed;
    for (let k = 0; k < n; k++) {
      const i = 3 * index[from + k]!;
      hashes[k] = hashPosition(xyz[i]!, xyz[i + 1]!, xyz[i + 2]!, seed);
    }
    // A loop this short keeps many of the loads in flight at once.
    const table = this.table;
    const mask = this.mask;
    let touched = 0;
    for (let k = 0; k < n; k++) touched |= table[hashes[k]! & mask]!;
    this.touched = touched;
    for (let k = 0; k < n; k++) {
      const v = index[from + k]!;
      const i = 3 * v;
      out[v] = this.lookup(xyz[i]!, xyz[i + 1]!, xyz[i + 2]!, hashes[k]!);
    }
  }

  private lookup(x: number, y: number, z: number, h: number): number {
    const table = this.table;
    const coords = this.coords;
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const entry = table[slot]!;
      if (entry === 0) break;
      const k = 3 * (entry - 1);
      if (coords[k] === x && coords[k + 1] === y && coords[k + 2] === z) return entry - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.count;
    let k = 3 * id;
    if (k + 3 > coords.length) {
      this.growCoords();
      k = 3 * id;
    }
    const c = this.coords;
    c[k] = x;
    c[k + 1] = y;
    c[k + 2] = z;
    table[slot] = id + 1;
    this.count = id + 1;
    // Keep the load under 1/2: short probes matter more than the table's size.
    if (this.count * 2 > mask) this.growTable();
    return id;
  }

  private growCoords(): void {
    const next = new Float64Array(this.coords.length * 2);
    next.set(this.coords);
    this.coords = next;
  }

  private growTable(): void {
    const size = this.table.length * 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    const coords = this.coords;
    for (let id = 0; id < this.count; id++) {
      let slot = hashPosition(coords[3 * id]!, coords[3 * id + 1]!, coords[3 * id + 2]!, this.seed) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

/**
 * The binary STL welder: positions are float32, so their three bit patterns are the key and sit in
 * the table slot with the id ([x, y, z, id + 1], 16 bytes): one memory access a lookup, and no
 * coordinate array at all. -0 is stored as 0; NaN never arrives (the geometry pass refuses it).
 */
export class Float32Welder {
  count = 0;
  private table: Uint32Array;
  private mask: number;
  private readonly seed: number;
  private readonly cache = new Uint32Array(4 * F32_CACHE_SIZE);
  /** weldRecords' cache misses: x, y, z bit patterns, hash and corner. */
  private misses = new Uint32Array(0);
  /** Keeps weldRecords' touching loads from being optimised away. */
  touched = 0;

  constructor(expectedVertices = 1024) {
    let size = 1024;
    // Kept under 70 % full: 16-byte slots make a probe of a few slots one or two cache lines.
    while (size * 0.7 < expectedVertices) size *= 2;
    this.table = new Uint32Array(4 * size);
    this.mask = size - 1;
    this.seed = (Math.random() * 0x100000000) | 1;
  }

  /**
   * Welds the three corners of n binary STL records (from offset, in view) into ids, three per
   * record, in three passes: the small cache answers what it can, and a corner it cannot answer
   * leaves a note there, so that the batch's later uses of the same position wait for that one
   * lookup; then the table slots of the misses are touched in one short loop, so that their
   * memory loads overlap instead of coming one after another; then the misses are looked up.
   */
  weldRecords(view: DataView, offset: number, n: number, ids: Int32Array): void {
    const corners = 3 * n;
    if (this.misses.length < 5 * corners) this.misses = new Uint32Array(5 * corners);
    const misses = this.misses;
    const cache = this.cache;
    const table = this.table;
    const mask = this.mask;
    const seed = this.seed;
    let m = 0;
    for (let c = 0, o = offset + 12; c < corners; c++) {
      const x = view.getUint32(o, true);
      const y = view.getUint32(o + 4, true);
      const z = view.getUint32(o + 8, true);
      // Corners are 12 bytes apart within a record; the next record's first is 26 bytes on.
      o += c % 3 === 2 ? 26 : 12;
      const kx = x === 0x80000000 ? 0 : x;
      const ky = y === 0x80000000 ? 0 : y;
      const kz = z === 0x80000000 ? 0 : z;
      const h = hash3(kx, ky, kz, seed);
      const line = 4 * ((h >>> 12) & F32_CACHE_MASK);
      const entry = cache[line + 3]!;
      if (entry !== 0 && cache[line] === kx && cache[line + 1] === ky && cache[line + 2] === kz) {
        // An id + 1, or PENDING + the corner whose lookup will give it (as -1 - corner).
        ids[c] = entry >= PENDING ? PENDING - 1 - entry : entry - 1;
        continue;
      }
      cache[line] = kx;
      cache[line + 1] = ky;
      cache[line + 2] = kz;
      cache[line + 3] = PENDING + c;
      misses[m] = kx;
      misses[m + 1] = ky;
      misses[m + 2] = kz;
      misses[m + 3] = h;
      misses[m + 4] = c;
      m += 5;
    }
    // A loop this short keeps many of the loads in flight at once.
    let touched = 0;
    for (let k = 3; k < m; k += 5) touched |= table[4 * (misses[k]! & mask) + 3]!;
    this.touched = touched;
    for (let k = 0; k < m; k += 5) {
      const h = misses[k + 3]! | 0;
      const c = misses[k + 4]!;
      const id = this.find(misses[k]!, misses[k + 1]!, misses[k + 2]!, h);
      ids[c] = id;
      // In corner order, so that a line's last writer is the miss that left the note there last.
      cache[4 * ((h >>> 12) & F32_CACHE_MASK) + 3] = id + 1;
    }
    for (let c = 0; c < corners; c++) {
      const id = ids[c]!;
      if (id < 0) ids[c] = ids[-1 - id]!;
    }
  }

  /** x, y, z of each id at 3 * id (a pass over the table; only the shells of a multi-part model need it). */
  positions(): Float32Array {
    const out = new Float32Array(3 * this.count);
    const bits = new Uint32Array(out.buffer);
    const table = this.table;
    for (let k = 0; k < table.length; k += 4) {
      const entry = table[k + 3]!;
      if (entry === 0) continue;
      const o = 3 * (entry - 1);
      bits[o] = table[k]!;
      bits[o + 1] = table[k + 1]!;
      bits[o + 2] = table[k + 2]!;
    }
    return out;
  }

  /** The id of the key in the table, added if new. */
  private find(kx: number, ky: number, kz: number, h: number): number {
    const table = this.table;
    const mask = this.mask;
    let slot = h & mask;
    for (;;) {
      const k = 4 * slot;
      const entry = table[k + 3]!;
      if (entry === 0) {
        const id = this.count++;
        table[k] = kx;
        table[k + 1] = ky;
        table[k + 2] = kz;
        table[k + 3] = id + 1;
        if (this.count > (mask + 1) * 0.7) this.grow();
        return id;
      }
      if (table[k] === kx && table[k + 1] === ky && table[k + 2] === kz) return entry - 1;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    const size = (this.mask + 1) * 2;
    const table = new Uint32Array(4 * size);
    const mask = size - 1;
    for (let k = 0; k < old.length; k += 4) {
      if (old[k + 3] === 0) continue;
      let slot = hash3(old[k]!, old[k + 1]!, old[k + 2]!, this.seed) & mask;
      while (table[4 * slot + 3] !== 0) slot = (slot + 1) & mask;
      table.set(old.subarray(k, k + 4), 4 * slot);
    }
    this.table = table;
    this.mask = mask;
  }
}

function hash3(x: number, y: number, z: number, seed: number): number {
  let h = Math.imul(x ^ seed, 0x9e3779b1);
  h = Math.imul(h ^ y ^ (h >>> 15), 0x85ebca77);
  h = Math.imul(h ^ z ^ (h >>> 13), 0xc2b2ae3d);
  return h ^ (h >>> 16);
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new VertexWelder());
keepShape(new Float32Welder());
