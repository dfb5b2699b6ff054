import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorageKey } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';
import { fileStoreContract } from './testing.ts';

let root: string;
let store: LocalFileStore;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-store-'));
  store = new LocalFileStore(path.join(root, 'files'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalFileStore', () => {
  fileStoreContract(() => store);

  it('moves a temp file in and leaves no temporary files behind', async () => {
    const a = newStorageKey('f');
    const b = newStorageKey('f');
    const temp = path.join(root, 'moved.part');
    fs.writeFileSync(temp, 'from a file');
    await store.put(a, { file: temp });
    expect(fs.existsSync(temp)).toBe(false);
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.put(b, { stream: failing })).rejects.toThrow('connection lost');
    expect(fs.readdirSync(store.dir).filter((f) => f.startsWith('.') || f.endsWith('.part'))).toEqual([]);
    expect(await text((await store.get(a))!.stream)).toBe('from a file');
  });
});
