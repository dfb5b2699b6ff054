import { randomBytes } from 'node:crypto';
import type { Dir } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  type FileStore,
  isStorageKey,
  type PutSource,
  StorageKeyError,
  type StoredFile,
} from './file-store.ts';
import { streamToFile } from './stream-to-file.ts';

// Files in one directory (config.filesDir, outside any web root), one file per key. A put writes a
// temporary name and renames it, so a reader never sees half a file.

export class LocalFileStore implements FileStore {
  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    if (!isStorageKey(key)) throw new StorageKeyError(key);
    return path.join(this.dir, key);
  }

  async put(key: string, source: PutSource): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(this.dir, { recursive: true });
    if ('file' in source) {
      try {
        await fsp.rename(source.file, target);
        return;
      } catch (err) {
        // Another file system (EXDEV): copy instead.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    const part = path.join(this.dir, `.${key}.${randomBytes(6).toString('hex')}.part`);
    try {
      if ('file' in source) await fsp.copyFile(source.file, part);
      else if ('bytes' in source) await fsp.writeFile(part, source.bytes);
      else await streamToFile(source.stream, part);
      await fsp.rename(part, target);
    } catch (err) {
      await fsp.rm(part, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async *list(): AsyncIterable<{ key: string; modified: Date }> {
    let dir: Dir;
    try {
      dir = await fsp.opendir(this.dir);
    } catch {
      return; // nothing stored yet
    }
    for await (const entry of dir) {
      if (!entry.isFile() || !isStorageKey(entry.name)) continue; // a put's temporary name, or not ours
      const stat = await fsp.stat(path.join(this.dir, entry.name)).catch(() => null);
      if (stat) yield { key: entry.name, modified: stat.mtime };
    }
  }
}
