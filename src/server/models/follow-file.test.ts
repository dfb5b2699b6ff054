import { describe, expect, it } from 'vitest';
import { createMeshAnalyzer } from '../../mesh/index.ts';
import { bigBinaryStl, concatChunks } from '../../mesh/testing/generate.ts';
import { FollowReader, FollowWriter } from './follow-file.ts';

describe('FollowReader.waitFor with spare work', () => {
  it('does the work in slices while the bytes are not there, and only then', () => {
    const writer = new FollowWriter();
    const reader = new FollowReader(writer.progress);
    writer.written(10);
    let slices = 0;
    // The bytes are there: no slice is done.
    expect(reader.waitFor(10, () => ++slices < 5)).toBe(10);
    expect(slices).toBe(0);
    // They are not (and no other thread will write them): every slice, then the end told by the last one.
    const spare = () => {
      slices++;
      if (slices < 5) return true;
      writer.end(40);
      return false;
    };
    expect(reader.waitFor(30, spare)).toBe(40);
    expect(slices).toBe(5);
  });

  it('does not count the spare work as waiting', () => {
    const writer = new FollowWriter();
    const reader = new FollowReader(writer.progress);
    reader.waitFor(1, () => {
      const until = performance.now() + 60;
      while (performance.now() < until);
      writer.written(1);
      return false;
    });
    expect(reader.waitedMs).toBeLessThan(30);
  });
});

describe("a mesh analyzer's spare slices (while an upload is followed)", () => {
  it('label and count the faces read so far, then say nothing is left, and give the same analysis', () => {
    const bytes = concatChunks(bigBinaryStl(4 * 1024 * 1024));
    const plain = createMeshAnalyzer('stl-binary', { totalSize: bytes.length });
    plain.push(bytes);
    const followed = createMeshAnalyzer('stl-binary', { totalSize: bytes.length });
    let slices = 0;
    for (let at = 0; at < bytes.length; at += 1024 * 1024) {
      // ~21,000 faces a chunk, 16,384 a slice: the first slice of each says some are left.
      followed.push(bytes.subarray(at, at + 1024 * 1024));
      while (followed.spare()) slices++;
    }
    expect(slices).toBe(4);
    expect(followed.spare()).toBe(false);
    const analysis = followed.finish();
    expect(analysis).toEqual(plain.finish());
    expect(analysis.watertight).toBe(true);
    // Nothing to do once finished.
    expect(followed.spare()).toBe(false);
  });
});
