import fs from 'node:fs';
import { CHUNK_BYTES } from '../../mesh/index.ts';

/**
 * Data offset inside a read buffer's allocation. glibc hands out blocks this big 16 bytes past a
 * page boundary, and on some x86 CPUs the kernel's copy from the page cache into a destination 1 to
 * 31 bytes past a page boundary runs several times slower (64 MB in 30-45 ms instead of 7 on one
 * machine; no difference on another, an AMD EPYC).
 */
const READ_BUFFER_OFFSET = 64;

/** A buffer for file reads, its bytes starting clear of the slow alignment above. */
export function readBuffer(size: number): Uint8Array {
  return new Uint8Array(size + READ_BUFFER_OFFSET).subarray(READ_BUFFER_OFFSET);
}

/** Reads the first size bytes of the open file in 1 MiB chunks, handing each to each (one buffer reused). */
export function readChunks(fd: number, size: number, each: (chunk: Uint8Array) => void): void {
  const buffer = readBuffer(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  let position = 0;
  while (position < size) {
    const n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
    if (n === 0) break;
    each(buffer.subarray(0, n));
    position += n;
  }
}
