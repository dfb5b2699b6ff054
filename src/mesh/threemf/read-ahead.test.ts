import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MeshError } from '../errors.ts';
import { AHEAD_BYTES, readAhead } from './archive.ts';

const MB = 1024 * 1024;

/** A source that makes chunks as fast as it is let, counting what it made. */
function source(chunks: Buffer[]) {
  let made = 0;
  let bytes = 0;
  const stream = new Readable({
    read() {
      const next = chunks[made];
      if (!next) {
        this.push(null);
        return;
      }
      made++;
      bytes += next.length;
      // At once: a source faster than any reader.
      this.push(next);
    },
  });
  return { stream, made: () => bytes };
}

const part = (size: number) => ({ fileName: '3D/3dmodel.model', uncompressedSize: size });

describe('readAhead (a model part inflated while it is read)', () => {
  it('hands every byte over in order, and lets the source run ahead by at most AHEAD_BYTES and a chunk', async () => {
    const chunks = Array.from({ length: 40 }, (_, k) => Buffer.alloc(MB, 0x30 + (k % 10)));
    const { stream, made } = source(chunks);
    let read = 0;
    let furthest = 0;
    const seen: number[] = [];
    await readAhead(stream, part(40 * MB), (bytes) => {
      seen.push(bytes[0]!);
      read += bytes.length;
      furthest = Math.max(furthest, made() - read);
      // A slow reader: the source would fill memory if nothing held it back.
      const until = performance.now() + 1;
      while (performance.now() < until);
    });
    expect(read).toBe(40 * MB);
    expect(seen).toEqual(chunks.map((c) => c[0]));
    expect(furthest).toBeGreaterThan(0);
    expect(furthest).toBeLessThanOrEqual(AHEAD_BYTES + 2 * MB);
  });

  it('refuses a part longer or shorter than declared, or not UTF-8, as damaged or not text', async () => {
    const long = source([Buffer.from('<model/>'), Buffer.from('more')]);
    await expect(readAhead(long.stream, part(8), () => {})).rejects.toThrow(/damaged/);
    const short = source([Buffer.from('<model/>')]);
    await expect(readAhead(short.stream, part(100), () => {})).rejects.toThrow(/damaged/);
    const latin1 = source([Buffer.from([0x3c, 0xe9, 0x3e])]);
    await expect(readAhead(latin1.stream, part(3), () => {})).rejects.toThrow(/is not UTF-8 text/);
    // A character cut at the very end.
    const cut = source([Buffer.from([0x3c, 0xc3])]);
    await expect(readAhead(cut.stream, part(2), () => {})).rejects.toThrow(/is not UTF-8 text/);
  });

  it('refuses what comes first in the part first: a fault before a failure of the stream gets its own message', async () => {
    // Bad UTF-8 in the first megabyte of a part too long for its declared size.
    const long = source([Buffer.from([0x3c, 0xe9, 0x3e]), Buffer.alloc(MB, 0x20), Buffer.alloc(MB, 0x20)]);
    await expect(readAhead(long.stream, part(MB), () => {})).rejects.toThrow(/is not UTF-8 text/);
    // The reader refuses the first chunk of a part whose inflate fails further on.
    let pushed = 0;
    const corrupt = new Readable({
      read() {
        if (pushed++ === 0) this.push(Buffer.alloc(MB, 0x20));
        else this.destroy(new Error('invalid distance too far back'));
      },
    });
    const refusal = new MeshError('3mf-xml', 'The model XML is not well-formed.');
    await expect(
      readAhead(corrupt, part(4 * MB), () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
  });

  it("stops at the reader's refusal, with its message, and at a source that fails, as damaged", async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(MB, 0x20));
    const { stream, made } = source(chunks);
    let calls = 0;
    const refusal = new MeshError('3mf-xml', 'The model XML is not well-formed.');
    await expect(
      readAhead(stream, part(20 * MB), () => {
        if (++calls === 3) throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(stream.destroyed).toBe(true);
    expect(made()).toBeLessThan(20 * MB);

    const failing = new Readable({
      read() {
        this.destroy(new Error('invalid stored block lengths'));
      },
    });
    await expect(readAhead(failing, part(10), () => {})).rejects.toThrow(
      'This 3MF file is damaged: its ZIP archive cannot be read.',
    );
  });
});
