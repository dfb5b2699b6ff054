import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { checkUploadName, type ModelExtension } from './file-name.ts';

// Streams the one file of a multipart upload to a temp file, hashing it on the way. Nothing is kept when
// the name is wrong or the file is larger than 64 MiB (SECURITY.md 23, 24): the caller gets an HttpError
// and no temp file.

export const TOO_LARGE = 'This file is larger than 64 MB.';
export const UPLOAD_FIELD = 'file';

/** Busboy limits for @fastify/multipart: one file of at most 64 MiB, a few small fields. */
export const UPLOAD_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 12,
  headerPairs: 100,
};

export type ReceivedUpload = {
  tempPath: string;
  fileName: string;
  extension: ModelExtension;
  sizeBytes: number;
  /** SHA-256, hex. */
  contentHash: string;
};

async function drain(part: MultipartFile): Promise<void> {
  part.file.resume();
  await finished(part.file).catch(() => {});
}

export async function receiveUpload(req: FastifyRequest, tmpDir: string): Promise<ReceivedUpload> {
  if (!req.isMultipart()) {
    throw new HttpError(415, `Send the model as multipart/form-data in the field "${UPLOAD_FIELD}".`);
  }
  const part = await req.file();
  if (!part) throw new HttpError(400, 'No file was sent.');
  if (part.fieldname !== UPLOAD_FIELD) {
    await drain(part);
    throw new HttpError(400, `Send the model in the form field "${UPLOAD_FIELD}".`);
  }
  let name: ReturnType<typeof checkUploadName>;
  try {
    name = checkUploadName(part.filename);
  } catch (err) {
    await drain(part);
    throw err;
  }

  await fsp.mkdir(tmpDir, { recursive: true });
  const tempPath = path.join(tmpDir, `u_${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, measure, fs.createWriteStream(tempPath, { flags: 'wx' }));
  } catch (err) {
    await fsp.rm(tempPath, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, TOO_LARGE);
    // A file system error (disk full) is ours: a 500. Anything else is the request breaking off.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    throw new HttpError(400, 'The upload was interrupted. Please try again.');
  }
  if (part.file.truncated || sizeBytes > MAX_UPLOAD_BYTES) {
    await fsp.rm(tempPath, { force: true });
    throw new HttpError(413, TOO_LARGE);
  }
  return { tempPath, ...name, sizeBytes, contentHash: hash.digest('hex') };
}
