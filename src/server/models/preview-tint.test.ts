import { describe, expect, it } from 'vitest';
import { createTintedPreviews, type Recolor } from './preview-tint.ts';

// The recoloured previews kept in memory: made once per stored picture and colour, within a byte bound.

/** A recolour that records its calls and answers `size` bytes naming the colour. */
function counting(size = 10) {
  const calls: string[] = [];
  const recolor: Recolor = async (png, from, to) => {
    calls.push(`${new TextDecoder().decode(png)}:${from}->${to}`);
    return new Uint8Array(size).fill(to.charCodeAt(1));
  };
  return { calls, recolor };
}

const stored = (name: string) => async () => new TextEncoder().encode(name);

describe('createTintedPreviews', () => {
  it('recolours a stored preview once per colour, and keeps each colour apart', async () => {
    const { calls, recolor } = counting();
    const tinted = createTintedPreviews({ recolor });
    const red = await tinted.get('p_one', 'red', stored('one'));
    expect(await tinted.get('p_one', 'red', stored('one'))).toBe(red);
    const green = await tinted.get('p_one', 'green', stored('one'));
    expect(green).not.toEqual(red);
    await tinted.get('p_two', 'red', stored('two'));
    // From the stored picture's colour (blue) to each line's.
    expect(calls).toEqual(['one:#007bff->#dc3545', 'one:#007bff->#28a745', 'two:#007bff->#dc3545']);
    expect(tinted.stats()).toEqual({ entries: 3, bytes: 30 });
  });

  it('makes one recolour for requests that arrive while it is being made', async () => {
    const { calls, recolor } = counting();
    const tinted = createTintedPreviews({ recolor });
    const all = await Promise.all([1, 2, 3].map(() => tinted.get('p_one', 'red', stored('one'))));
    expect(calls).toHaveLength(1);
    expect(new Set(all).size).toBe(1);
  });

  it('keeps within its byte bound, dropping the least recently used first', async () => {
    const { calls, recolor } = counting(40);
    const tinted = createTintedPreviews({ recolor, maxBytes: 100 });
    await tinted.get('p_a', 'red', stored('a'));
    await tinted.get('p_b', 'red', stored('b'));
    // a is used again, so b is the least recently used when c arrives.
    await tinted.get('p_a', 'red', stored('a'));
    await tinted.get('p_c', 'red', stored('c'));
    expect(tinted.stats()).toEqual({ entries: 2, bytes: 80 });
    await tinted.get('p_a', 'red', stored('a'));
    expect(calls).toHaveLength(3);
    await tinted.get('p_b', 'red', stored('b'));
    expect(calls).toHaveLength(4);
    expect(tinted.stats().bytes).toBeLessThanOrEqual(100);
  });

  it('keeps no failure: the next request tries again', async () => {
    let fail = true;
    const tinted = createTintedPreviews({
      recolor: async () => {
        if (fail) throw new Error('unreadable');
        return new Uint8Array(4);
      },
    });
    await expect(tinted.get('p_one', 'red', stored('one'))).rejects.toThrow('unreadable');
    fail = false;
    expect(await tinted.get('p_one', 'red', stored('one'))).toHaveLength(4);
  });
});
