import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../mesh/index.ts';
import { readBuffer, readChunks } from './read-chunks.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-chunks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function chunksOf(bytes: Uint8Array, size = bytes.length): Uint8Array[] {
  const file = path.join(dir, `f-${bytes.length}`);
  fs.writeFileSync(file, bytes);
  const fd = fs.openSync(file, 'r');
  const chunks: Uint8Array[] = [];
  try {
    readChunks(fd, size, (chunk) => chunks.push(chunk.slice()));
  } finally {
    fs.closeSync(fd);
  }
  return chunks;
}

describe('readChunks', () => {
  it('hands over the file in 1 MiB chunks, in order', () => {
    const bytes = randomBytes(2 * CHUNK_BYTES + 12345);
    const chunks = chunksOf(bytes);
    expect(chunks.map((c) => c.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, 12345]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('stops at the size it was given, even if the file has grown since', () => {
    const bytes = randomBytes(5000);
    expect(Buffer.concat(chunksOf(bytes, 3000)).equals(bytes.subarray(0, 3000))).toBe(true);
  });

  it('hands over nothing for an empty file', () => {
    expect(chunksOf(new Uint8Array(0))).toEqual([]);
  });
});

describe('readBuffer', () => {
  it('starts its bytes 64 bytes into the allocation, clear of the slow copy alignment', () => {
    const buffer = readBuffer(CHUNK_BYTES);
    expect(buffer.length).toBe(CHUNK_BYTES);
    expect(buffer.byteOffset).toBe(64);
  });
});
