import { afterEach, describe, expect, it, vi } from 'vitest';
import { announcedLength, fetchWithProgress, LoadError, loadedText, percentOf } from './fetch-progress.ts';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchWithProgress', () => {
  it('reads the body chunk by chunk and reports each step', async () => {
    const chunks = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5]), new Uint8Array([6])];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(streamOf(chunks), { headers: { 'content-length': '6' } })),
    );
    const steps: [number, number | null][] = [];
    const buffer = await fetchWithProgress('/api/models/m1/file', (l, t) => steps.push([l, t]));
    expect(Array.from(new Uint8Array(buffer))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(steps).toEqual([
      [0, 6],
      [3, 6],
      [5, 6],
      [6, 6],
    ]);
  });

  it('fails on an error status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"Model not found."}', { status: 404 })),
    );
    await expect(fetchWithProgress('/x', () => {})).rejects.toBeInstanceOf(LoadError);
  });
});

describe('progress figures', () => {
  it('knows the size only when it is announced and not compressed', () => {
    expect(announcedLength(new Headers({ 'content-length': '1024' }))).toBe(1024);
    expect(announcedLength(new Headers({ 'content-length': '1024', 'content-encoding': 'gzip' }))).toBeNull();
    expect(announcedLength(new Headers())).toBeNull();
  });

  it('gives whole percents', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(3, 3)).toBe(100);
    expect(percentOf(5, null)).toBeNull();
    expect(loadedText(3 * 1024 * 1024)).toBe('3.0 MB loaded');
    expect(loadedText(2048)).toBe('2 KB loaded');
  });
});
