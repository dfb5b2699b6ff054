import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  type FileStore,
  isStorageKey,
  type PutSource,
  StorageKeyError,
  type StoredFile,
} from './file-store.ts';

// Model files and previews in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph...), for
// several app instances that share no disk (the README's design notes). Objects are private: the shop streams them
// out through its own access checks, it never hands out bucket URLs.

export type S3Settings = {
  bucket: string;
  region: string;
  /** For a non-AWS store: its URL. */
  endpoint?: string | undefined;
  /** `bucket` in the path instead of the host name (MinIO and most self-hosted stores need it). */
  forcePathStyle: boolean;
  /** Without them the SDK's usual chain applies (environment, profile, instance role). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Prepended to every key, so one bucket can serve several shops. */
  prefix: string;
};

/** A stream put is held in memory to learn its length: model files are 64 MiB at most. */
const MAX_STREAM_BYTES = 80 * 1024 * 1024;

export class S3FileStore implements FileStore {
  private readonly s3: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.s3 = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // Checksums only where S3 demands them: many S3-compatible stores do not read the chunked
      // trailers the SDK would otherwise send with every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // An unreachable store fails an upload in seconds rather than holding it; a stalled transfer
      // (no byte either way for two minutes, generous for a slow client's paused download) is cut.
      requestHandler: { connectionTimeout: 5000, socketTimeout: 120_000 },
    });
  }

  private objectKey(key: string): string {
    if (!isStorageKey(key)) throw new StorageKeyError(key);
    return this.settings.prefix + key;
  }

  async put(key: string, source: PutSource): Promise<void> {
    const Key = this.objectKey(key);
    const target = { Bucket: this.settings.bucket, Key, ContentType: 'application/octet-stream' };
    if ('file' in source) {
      const { size } = await fsp.stat(source.file);
      const body = fs.createReadStream(source.file);
      try {
        await this.s3.send(new PutObjectCommand({ ...target, Body: body, ContentLength: size }));
      } finally {
        // A failed put may leave the stream unread: close its file descriptor.
        body.destroy();
      }
    } else {
      const bytes = 'bytes' in source ? source.bytes : await collect(source.stream);
      await this.s3.send(new PutObjectCommand({ ...target, Body: bytes, ContentLength: bytes.length }));
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    const Key = this.objectKey(key);
    try {
      const got = await this.s3.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key }));
      if (!(got.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
      return { stream: got.Body, size: got.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 deletes are idempotent: a missing key is no error.
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<{ key: string; modified: Date }> {
    const { bucket, prefix } = this.settings;
    // A bucket's root may hold another application's objects: only a prefix of the shop's own is swept.
    if (prefix === '') return;
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(prefix.length) ?? '';
        if (isStorageKey(key) && object.LastModified) yield { key, modified: object.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.s3.destroy();
  }
}

function isMissing(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

async function collect(stream: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const part of stream) {
    const buffer = Buffer.isBuffer(part) ? part : Buffer.from(part as string);
    length += buffer.length;
    if (length > MAX_STREAM_BYTES) throw new Error('The file is too big to store.');
    parts.push(buffer);
  }
  return Buffer.concat(parts, length);
}
