import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageKey, newStorageKey, StorageKeyError } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';

let root: string;
let store: LocalFileStore;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-store-'));
  store = new LocalFileStore(path.join(root, 'files'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalFileStore', () => {
  it('puts bytes, a stream and a temp file (moved), and reads them back', async () => {
    const a = newStorageKey('f');
    const b = newStorageKey('f');
    const c = newStorageKey('p');
    await store.put(a, { bytes: new TextEncoder().encode('bytes') });
    await store.put(b, { stream: Readable.from(['str', 'eam']) });
    const temp = path.join(root, 'upload.part');
    fs.writeFileSync(temp, 'from a file');
    await store.put(c, { file: temp });
    expect(fs.existsSync(temp)).toBe(false);
    for (const [key, expected] of [
      [a, 'bytes'],
      [b, 'stream'],
      [c, 'from a file'],
    ] as const) {
      const got = await store.get(key);
      expect(got?.size).toBe(expected.length);
      expect(await text(got!.stream)).toBe(expected);
      expect(await store.exists(key)).toBe(true);
    }
    // Only the three files, no temporary leftovers.
    expect(fs.readdirSync(store.dir).sort()).toEqual([a, b, c].sort());
  });

  it('answers null / false for a missing key and deletes quietly', async () => {
    const key = newStorageKey('f');
    expect(await store.get(key)).toBeNull();
    expect(await store.exists(key)).toBe(false);
    await store.delete(key);
    await store.put(key, { bytes: new Uint8Array([1]) });
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
  });

  it('refuses keys that could leave its directory', async () => {
    for (const key of ['../etc/passwd', 'a/b/c/d/e/f', '.hidden-file', '', 'x'.repeat(200), 'abc']) {
      expect(isStorageKey(key)).toBe(false);
      await expect(store.get(key)).rejects.toBeInstanceOf(StorageKeyError);
      await expect(store.put(key, { bytes: new Uint8Array([1]) })).rejects.toBeInstanceOf(StorageKeyError);
    }
    expect(isStorageKey(newStorageKey('f'))).toBe(true);
  });

  it('leaves no partial file when a stream fails', async () => {
    const key = newStorageKey('f');
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.put(key, { stream: failing })).rejects.toThrow('connection lost');
    expect(await store.exists(key)).toBe(false);
    expect(fs.readdirSync(store.dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});
