// The scratch arrays an analysis lends itself (scratch.ts): the same memory from one scope to the next,
// zeroed only when asked, fresh outside a scope and while one of its own is still lent, and all of it given
// back when a scope ends, even by a throw.

import { describe, expect, it } from 'vitest';
import {
  giveOutgrown,
  scratchFloat64,
  scratchInt32,
  scratchKeptBytes,
  scratchScope,
  scratchSharedInt32,
  takeOutgrown,
} from './scratch.ts';

describe('scratch arrays', () => {
  it('lends the memory of the last scope again, holding what it held unless zeroed', () => {
    const first = scratchScope(() => {
      const a = scratchInt32(1000, false);
      a.fill(7);
      return a.buffer;
    });
    scratchScope(() => {
      const again = scratchInt32(800, false);
      expect(again.buffer).toBe(first);
      expect(again.length).toBe(800);
      expect(again[0]).toBe(7);
    });
    scratchScope(() => {
      const zeroed = scratchInt32(1000, true);
      expect(zeroed.buffer).toBe(first);
      expect(zeroed.every((v) => v === 0)).toBe(true);
    });
  });

  it('never lends one array twice in a scope, nor across kinds', () => {
    scratchScope(() => {
      const a = scratchInt32(500, false);
      const b = scratchInt32(500, false);
      const c = scratchFloat64(500);
      expect(a.buffer).not.toBe(b.buffer);
      expect(c.buffer).not.toBe(a.buffer);
      expect(c.buffer).not.toBe(b.buffer);
      // A nested scope lends from the same pool: its arrays come back with the outer scope's.
      scratchScope(() => {
        const d = scratchInt32(500, false);
        expect([a.buffer, b.buffer]).not.toContain(d.buffer);
      });
      const e = scratchInt32(500, false);
      expect([a.buffer, b.buffer]).not.toContain(e.buffer);
    });
  });

  it('lends shared memory (for the census helper) only as shared memory', () => {
    const shared = scratchScope(() => scratchSharedInt32(5000).buffer);
    expect(shared).toBeInstanceOf(SharedArrayBuffer);
    scratchScope(() => {
      expect(scratchInt32(5000, false).buffer).not.toBe(shared);
      expect(scratchSharedInt32(4000).buffer).toBe(shared);
    });
    expect(scratchSharedInt32(10).buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('makes fresh arrays outside a scope', () => {
    scratchScope(() => scratchInt32(300, false).fill(9));
    const outside = scratchInt32(300, false);
    expect(outside.every((v) => v === 0)).toBe(true);
    expect(scratchInt32(300, false).buffer).not.toBe(outside.buffer);
  });

  it('throws for a length no array can have, as the constructors do, in a scope or not', () => {
    scratchScope(() => scratchInt32(100, false));
    expect(() => scratchScope(() => scratchInt32(-1, true))).toThrow(RangeError);
    expect(() => scratchInt32(-1, true)).toThrow(RangeError);
  });

  it('gives everything back when a scope throws', () => {
    let lent: ArrayBufferLike | null = null;
    expect(() =>
      scratchScope(() => {
        lent = scratchFloat64(2000).buffer;
        throw new Error('the analysis failed');
      }),
    ).toThrow('the analysis failed');
    scratchScope(() => expect(scratchFloat64(2000).buffer).toBe(lent));
  });

  it('keeps at most 96 MB for the next scope, the biggest first', () => {
    scratchScope(() => {
      scratchFloat64((60 * 1024 * 1024) / 8);
      scratchFloat64((50 * 1024 * 1024) / 8);
      scratchInt32(1024, false);
    });
    expect(scratchKeptBytes()).toBeLessThanOrEqual(96 * 1024 * 1024);
    expect(scratchKeptBytes()).toBeGreaterThanOrEqual(60 * 1024 * 1024);
  });
});

describe('outgrown arrays', () => {
  it('are taken again by the next owner growing through the same length and type, once', () => {
    const old = new Float64Array(16384).fill(2.5);
    giveOutgrown(old);
    expect(takeOutgrown(new Int32Array(1), 16384)).toBeNull();
    expect(takeOutgrown(new Float64Array(1), 8192)).toBeNull();
    const taken = takeOutgrown(new Float64Array(1), 16384);
    expect(taken).toBe(old);
    expect(takeOutgrown(new Float64Array(1), 16384)).toBeNull();
  });

  it('are kept only whole, unshared, not tiny, and up to the limit', () => {
    const big = new Int32Array(1 << 16);
    giveOutgrown(big.subarray(0, 1 << 15));
    giveOutgrown(new Int32Array(new SharedArrayBuffer(1 << 18)));
    giveOutgrown(new Int32Array(100));
    expect(takeOutgrown(big, 1 << 15)).toBeNull();
    expect(takeOutgrown(big, 1 << 16)).toBeNull();
    expect(takeOutgrown(big, 100)).toBeNull();
    // 40 MB given in 8 MB arrays: what passes 32 MB is let go.
    const arrays = Array.from({ length: 5 }, () => new Int32Array(2 * 1024 * 1024));
    for (const a of arrays) giveOutgrown(a);
    const back = arrays.map(() => takeOutgrown(big, 2 * 1024 * 1024)).filter((a) => a !== null);
    expect(back).toHaveLength(4);
  });
});
