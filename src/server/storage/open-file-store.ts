import type { Config } from '../config.ts';
import type { FileStore } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';

/** The store the configuration names: for now always the local directory config.filesDir. */
export function openFileStore(config: Pick<Config, 'filesDir'>): FileStore {
  return new LocalFileStore(config.filesDir);
}
