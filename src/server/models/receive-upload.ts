import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { HttpError } from '../plugins/error-handler.ts';
import { streamToFile } from '../storage/stream-to-file.ts';
import { isNoSpaceError } from './disk-space.ts';
import { checkUploadName, type ModelExtension } from './file-name.ts';
import { FollowedAnalysis, type StartFollow } from './upload-stream.ts';

// Streams the one file of a multipart upload to a temp file, hashing it on the way (CONTENT_HASH). Nothing is kept when
// the name is wrong, the file is larger than 64 MiB (docs/security.md 23, 24) or the disk fills up (507, see
// disk-space.ts): the caller gets an HttpError and no temp file.

export const TOO_LARGE = 'This file is larger than 64 MB.';

/**
 * The hash an upload is known by (an owner's repeated upload finds its row by it): SHA-512/256, as strong as
 * SHA-256 and ~1.7x as quick on 64-bit cores without SHA instructions, where it is taken on the event loop as
 * the file arrives (a 64 MB file: ~0.20 s against ~0.34 s on 2026-11-27's machine). A file stored before it
 * (SHA-256) is not found by a repeat of it: that upload makes a row of its own, once.
 */
export const CONTENT_HASH = 'sha512-256';
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
  /** CONTENT_HASH, hex. */
  contentHash: string;
  /** The analysis that followed the file as it streamed in, when one did (upload-stream.ts). */
  followed?: FollowedAnalysis;
};

/** How the caller watches the disk while the file streams in. */
export type ReceiveSpaceCheck = {
  /** Called after every `everyBytes` received; throws (an HttpError) to stop the upload. */
  received(bytesSoFar: number): Promise<void>;
  everyBytes: number;
  /** The error for a write that failed for lack of room (ENOSPC). */
  noSpace(): Error;
};

async function drain(part: MultipartFile): Promise<void> {
  part.file.resume();
  await finished(part.file).catch(() => {});
}

const MALFORMED = 'The upload is not a valid multipart/form-data request.';
const INTERRUPTED = 'The upload was interrupted. Please try again.';

/**
 * What a busboy error says about the request, from its message (busboy's errors are plain Errors with no
 * status or code of their own): headers it cannot parse, or a body that ends before the form does.
 */
function busboyRefusal(err: unknown): 'malformed' | 'cut off' | null {
  if (!(err instanceof Error) || 'statusCode' in err || 'code' in err) return null;
  if (/^(Multipart: Boundary not found|Unsupported Content-Type|Missing Content-Type)/i.test(err.message))
    return 'malformed';
  if (/^Unexpected end of (multipart data|form|file)/i.test(err.message)) return 'cut off';
  return null;
}

export async function receiveUpload(
  req: FastifyRequest,
  tmpDir: string,
  space?: ReceiveSpaceCheck,
  startFollow?: StartFollow,
): Promise<ReceivedUpload> {
  if (!req.isMultipart()) {
    throw new HttpError(415, `Send the model as multipart/form-data in the field "${UPLOAD_FIELD}".`);
  }
  const part = await req.file().catch((err: unknown) => {
    // The parser refuses the request's own headers (no boundary, a malformed type): the client's error,
    // told as one, not a 500 with a stack in the log.
    const refusal = busboyRefusal(err);
    if (refusal === 'malformed') {
      req.log.info({ reason: (err as Error).message }, 'malformed multipart request refused');
      throw new HttpError(400, MALFORMED);
    }
    // The body broke off before the file's own headers had arrived.
    if (refusal === 'cut off') throw new HttpError(400, INTERRUPTED);
    throw err;
  });
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
  const hash = createHash(CONTENT_HASH);
  let sizeBytes = 0;
  let nextCheck = space?.everyBytes ?? Number.POSITIVE_INFINITY;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      if (!space || sizeBytes < nextCheck) return done(null, chunk);
      nextCheck = sizeBytes + space.everyBytes;
      space.received(sizeBytes).then(() => done(null, chunk), done);
    },
  });
  // Not pipeline(part.file, ...): on a failure it would destroy the file stream, and busboy would then wait
  // forever to pass on the rest of the request, holding the connection open. The rest is read and dropped.
  let requestBroken = false;
  // finished() also reports a stream that failed already (a body cut off before we got here).
  finished(part.file).catch((err: unknown) => {
    requestBroken = true; // cut off, or over the size limit: nothing more to read
    measure.destroy(err as Error);
  });
  part.file.pipe(measure);
  // Started only once the name is accepted: the worker reads the file as each write lands.
  const follow = startFollow?.({ tempPath, extension: name.extension }) ?? null;
  const onWritten = follow ? (bytes: number) => follow.written(bytes) : undefined;
  try {
    await streamToFile(measure, tempPath, { exclusive: true, ...(onWritten ? { onWritten } : {}) }); // removed again if it fails
  } catch (err) {
    follow?.abort();
    part.file.unpipe(measure);
    if (!requestBroken) await drain(part);
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, TOO_LARGE);
    if (space && isNoSpaceError(err)) throw space.noSpace();
    // Any other file system error is ours: a 500. Anything else is the request breaking off.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    throw new HttpError(400, INTERRUPTED);
  }
  if (part.file.truncated || sizeBytes > MAX_UPLOAD_BYTES) {
    follow?.abort();
    await fsp.rm(tempPath, { force: true });
    throw new HttpError(413, TOO_LARGE);
  }
  follow?.end(sizeBytes);
  const received = { tempPath, ...name, sizeBytes, contentHash: hash.digest('hex') };
  return follow ? { ...received, followed: new FollowedAnalysis(follow.result) } : received;
}
