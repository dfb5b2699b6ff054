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
});
