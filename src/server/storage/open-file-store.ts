import type { Config } from '../config.ts';
import type { FileStore } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';

export type OpenedFileStore = {
  store: FileStore;
  /** The local directory the files live in, or null when they are in a bucket. */
  localDir: string | null;
  close(): void;
};

/** The store the configuration names: an S3 bucket with S3_BUCKET, else the directory config.filesDir. */
export async function openFileStore(config: Pick<Config, 'filesDir' | 's3'>): Promise<OpenedFileStore> {
  if (config.s3) {
    // Loaded only when used: the AWS SDK is big, and most shops keep their files on disk.
    const { S3FileStore } = await import('./s3-file-store.ts');
    const store = new S3FileStore(config.s3);
    return { store, localDir: null, close: () => store.close() };
  }
  return { store: new LocalFileStore(config.filesDir), localDir: config.filesDir, close: () => {} };
}
