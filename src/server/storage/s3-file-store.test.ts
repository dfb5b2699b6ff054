import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStorageKey } from './file-store.ts';
import { S3FileStore, type S3Settings } from './s3-file-store.ts';
import { fileStoreContract } from './testing.ts';

// Against s3rver, an S3-compatible server in this process (no network, no account).

let dir: string;
let server: S3rver;
let settings: S3Settings;
let store: S3FileStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await server.run()) as unknown as { port: number };
  settings = {
    bucket: 'shop-files',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: 'printshop/',
  };
  const admin = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint!,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await admin.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  admin.destroy();
  store = new S3FileStore(settings);
});

afterAll(async () => {
  store.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('S3FileStore', () => {
  fileStoreContract(() => store);

  it('keeps objects under its prefix, byte for byte', async () => {
    const key = newStorageKey('f');
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
    await store.put(key, { bytes });
    const got = await store.get(key);
    expect(got?.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const c of got!.stream) chunks.push(c as Buffer);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(bytes);
    // Another shop's prefix in the same bucket does not see it.
    const other = new S3FileStore({ ...settings, prefix: 'other-shop/' });
    try {
      expect(await other.exists(key)).toBe(false);
    } finally {
      other.close();
    }
  });

  it('fails loudly when the bucket does not exist', async () => {
    const other = new S3FileStore({ ...settings, bucket: 'no-such-bucket' });
    try {
      await expect(other.put(newStorageKey('f'), { bytes: new Uint8Array([1]) })).rejects.toThrow();
    } finally {
      other.close();
    }
  });

  it.runIf(process.platform === 'linux')('closes the temp file it was reading when a put fails', async () => {
    const file = path.join(dir, 'upload.tmp');
    fs.writeFileSync(file, Buffer.alloc(200_000, 7));
    // Nothing listens on port 1: the put fails before the SDK has read a byte of the file.
    const other = new S3FileStore({ ...settings, endpoint: 'http://127.0.0.1:1' });
    try {
      await expect(other.put(newStorageKey('f'), { file })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      other.close();
    }
    // Give the stream's close a turn of the event loop, then look for a descriptor still open on it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const open = fs
      .readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      })
      .filter((target) => target === file);
    expect(open).toEqual([]);
  });
});
