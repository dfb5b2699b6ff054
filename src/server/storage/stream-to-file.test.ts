import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamToFile } from './stream-to-file.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-to-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Gives `chunks`, then fails with `error` if one is given. */
function source(chunks: string[], error?: Error): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else if (error) this.destroy(error);
      else this.push(null);
    },
  });
}

describe('streamToFile', () => {
  it('writes every chunk of the stream', async () => {
    const file = path.join(dir, 'a');
    await streamToFile(source(['one ', 'two ', 'three']), file);
    expect(fs.readFileSync(file, 'utf8')).toBe('one two three');
  });

  it('leaves no file when the stream fails at once or halfway, and rejects with its error', async () => {
    for (const chunks of [[], ['half of it']]) {
      const file = path.join(dir, `cut-${chunks.length}`);
      await expect(streamToFile(source(chunks, new Error('cut off')), file)).rejects.toThrow('cut off');
      expect(fs.existsSync(file)).toBe(false);
    }
    // Many at once, as when the file system's threads are busy: none comes back after its removal.
    const files = Array.from({ length: 100 }, (_, i) => path.join(dir, `many-${i}`));
    await Promise.all(files.map((f) => streamToFile(source([], new Error('cut off')), f).catch(() => {})));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('keeps an error the source meets while the file opens for its answer, not thrown as uncaught', async () => {
    const file = path.join(dir, 'cut-early');
    const stream = source(['never read']);
    const writing = streamToFile(stream, file);
    stream.destroy(new Error('cut off while opening'));
    await expect(writing).rejects.toThrow('cut off while opening');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('exclusive: refuses a file that exists, leaves it as it was and lets go of the stream', async () => {
    const file = path.join(dir, 'taken');
    fs.writeFileSync(file, 'first');
    const stream = source(['second']);
    await expect(streamToFile(stream, file, { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(file, 'utf8')).toBe('first');
    expect(stream.destroyed).toBe(true);
  });

  it('without exclusive, replaces a file that exists', async () => {
    const file = path.join(dir, 'again');
    fs.writeFileSync(file, 'a much longer first version');
    await streamToFile(source(['second']), file);
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
  });

  it('onWritten: tells the bytes in the file after each write, each already readable there', async () => {
    const file = path.join(dir, 'counted');
    const chunks = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(4, '0')}`.repeat(4096));
    const told: number[] = [];
    const onDisk: number[] = [];
    await streamToFile(source(chunks), file, {
      onWritten: (bytes) => {
        told.push(bytes);
        onDisk.push(fs.statSync(file).size);
      },
    });
    const total = chunks.join('').length;
    expect(fs.readFileSync(file, 'utf8')).toBe(chunks.join(''));
    expect(told.at(-1)).toBe(total);
    expect(told).toEqual([...told].sort((a, b) => a - b));
    for (let k = 0; k < told.length; k++) expect(onDisk[k]).toBeGreaterThanOrEqual(told[k]!);
  });

  it('onWritten: a stream that fails halfway still leaves no file', async () => {
    const file = path.join(dir, 'counted-cut');
    const told: number[] = [];
    await expect(
      streamToFile(source(['x'.repeat(70_000), 'y'.repeat(70_000)], new Error('cut off')), file, {
        onWritten: (bytes) => told.push(bytes),
      }),
    ).rejects.toThrow('cut off');
    expect(fs.existsSync(file)).toBe(false);
    expect(told.every((b) => b <= 140_000)).toBe(true);
  });
});
