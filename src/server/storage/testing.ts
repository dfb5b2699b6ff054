import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, expect, it } from 'vitest';
import { type FileStore, isStorageKey, newStorageKey, StorageKeyError } from './file-store.ts';

/** What every FileStore must do, as tests (called inside a describe). */
export function fileStoreContract(store: () => FileStore): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-store-contract-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('puts bytes, a stream and a temp file, and reads them back with their size', async () => {
    const s = store();
    const a = newStorageKey('f');
    const b = newStorageKey('f');
    const c = newStorageKey('p');
    await s.put(a, { bytes: new TextEncoder().encode('bytes') });
    await s.put(b, { stream: Readable.from(['str', 'eam']) });
    const temp = path.join(root, 'upload.part');
    fs.writeFileSync(temp, 'from a file');
    await s.put(c, { file: temp });
    for (const [key, expected] of [
      [a, 'bytes'],
      [b, 'stream'],
      [c, 'from a file'],
    ] as const) {
      const got = await s.get(key);
      expect(got?.size).toBe(expected.length);
      expect(await text(got!.stream)).toBe(expected);
      expect(await s.exists(key)).toBe(true);
    }
  });

  it('answers null / false for a missing key and deletes quietly', async () => {
    const s = store();
    const key = newStorageKey('f');
    expect(await s.get(key)).toBeNull();
    expect(await s.exists(key)).toBe(false);
    await s.delete(key);
    await s.put(key, { bytes: new Uint8Array([1]) });
    await s.delete(key);
    expect(await s.exists(key)).toBe(false);
    expect(await s.get(key)).toBeNull();
  });

  it('refuses keys that are not its own random keys', async () => {
    const s = store();
    for (const key of ['../etc/passwd', 'a/b/c/d/e/f', '.hidden-file', '', 'x'.repeat(200), 'abc']) {
      expect(isStorageKey(key)).toBe(false);
      await expect(s.get(key)).rejects.toBeInstanceOf(StorageKeyError);
      await expect(s.put(key, { bytes: new Uint8Array([1]) })).rejects.toBeInstanceOf(StorageKeyError);
      await expect(s.delete(key)).rejects.toBeInstanceOf(StorageKeyError);
    }
    expect(isStorageKey(newStorageKey('f'))).toBe(true);
  });

  it('stores nothing when a stream fails', async () => {
    const s = store();
    const key = newStorageKey('f');
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(s.put(key, { stream: failing })).rejects.toThrow('connection lost');
    expect(await s.exists(key)).toBe(false);
  });

  it('lists every key it holds with when it was written, and no longer a deleted one', async () => {
    const s = store();
    const started = Date.now() - 60_000; // clocks of a store and of this process differ a little
    const keys = [newStorageKey('f'), newStorageKey('p')];
    for (const key of keys) await s.put(key, { bytes: new Uint8Array([1, 2, 3]) });
    const listed = new Map<string, Date>();
    for await (const { key, modified } of s.list!()) listed.set(key, modified);
    for (const key of keys) {
      expect(listed.get(key)?.getTime()).toBeGreaterThan(started);
      expect(listed.get(key)!.getTime()).toBeLessThan(Date.now() + 60_000);
    }
    for (const key of listed.keys()) expect(isStorageKey(key)).toBe(true);
    await s.delete(keys[0]!);
    const after: string[] = [];
    for await (const { key } of s.list!()) after.push(key);
    expect(after).not.toContain(keys[0]);
    expect(after).toContain(keys[1]);
  });
}
