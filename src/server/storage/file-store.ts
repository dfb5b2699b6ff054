import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

// Where model files and previews live: a local directory by default; an S3-compatible store can
// implement the same four operations (the README's design notes). Keys are random, never derived from user input.

export type PutSource =
  /** A finished temporary file: the store may move it (the caller removes the path afterwards anyway). */
  { file: string } | { bytes: Uint8Array } | { stream: Readable };

export type StoredFile = { stream: Readable; size: number };

export interface FileStore {
  put(key: string, source: PutSource): Promise<void>;
  /** The file's bytes, or null when there is no such key. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes a key; a missing one is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * Every key with when it was written, for the cleanup's sweep of files no row names (left by a process
   * killed between storing a file and writing its row). Stores without it are not swept.
   */
  list?(): AsyncIterable<{ key: string; modified: Date }>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{7,127}$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

/** A fresh key: a short kind prefix ('f' file, 'p' preview) and 128 random bits. */
export function newStorageKey(kind: string): string {
  return `${kind}_${randomBytes(16).toString('base64url')}`;
}

export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`Not a storage key: ${JSON.stringify(key.slice(0, 40))}`);
  }
}
