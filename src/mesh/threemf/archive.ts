// The ZIP side of a 3MF file (an OPC package): which parts it holds, and each part's text streamed out of
// the archive, never inflated whole. A part must inflate to exactly the size its directory entry declares
// (yauzl checks it for readText, readBytes itself), so the limits below hold on the declared sizes: a part
// over them is never opened.

import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { MeshError } from '../errors.ts';
import { Utf8Check } from './utf8.ts';

/** Text we inflate and parse for one model, over all its parts. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
/** Model XML packs 3-20x; a part of a few MB that packs over this is a ZIP bomb. */
export const MAX_PACKING_RATIO = 200;
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;

/** Whether a part of `size` unpacked bytes from `packed` ones packs like a ZIP bomb. */
export function packsTooTightly(size: number, packed: number): boolean {
  return size >= RATIO_CHECKED_FROM_BYTES && size > MAX_PACKING_RATIO * Math.max(1, packed);
}

const MB = 1024 * 1024;
/** readBytes' chunks: inflated a megabyte at a time, zlib runs near its full speed (16 kB: a third of it). */
const CHUNK_BYTES = MB;
/** How readBytes inflates (the bench inflates the same way for its floor). */
export const INFLATE_OPTIONS: zlib.ZlibOptions = { chunkSize: CHUNK_BYTES };

export const NOT_A_ZIP = 'This file is named .3mf but is not a 3MF file (a 3MF file is a ZIP archive).';

function damaged(): MeshError {
  return new MeshError('3mf-archive', 'This 3MF file is damaged: its ZIP archive cannot be read.');
}

/** A part name as OPC compares them: without the leading '/', case-insensitive. */
export function partKey(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
}

/** Where a part lies in the archive, as its central directory says. */
export interface PartPlace {
  fileName: string;
  localHeaderOffset: number;
  compressionMethod: number;
  compressedSize: number;
  uncompressedSize: number;
}

export interface Archive {
  has(name: string): boolean;
  /** Where a part lies, or null when there is no such part. */
  place(name: string): PartPlace | null;
  /**
   * Counts a part read elsewhere (from its local header as the file arrived, early-parts.ts) as readText and
   * readBytes count theirs: its limits are checked, with the same refusals.
   */
  admit(name: string): void;
  /** Streams one part's text (UTF-8) to onText, chunk by chunk. */
  readText(name: string, onText: (text: string) => void): Promise<void>;
  /** Streams one part's bytes, checked to be UTF-8, to onBytes, in chunks of at most a megabyte. */
  readBytes(name: string, onBytes: (bytes: Uint8Array) => void): Promise<void>;
  close(): void;
}

function notUtf8(entry: Pick<yauzl.Entry, 'fileName'>): MeshError {
  return new MeshError(
    '3mf-xml',
    `This 3MF file's part '${entry.fileName}' is not UTF-8 text, as 3MF requires.`,
  );
}

/** A part's packed bytes, as one view of the archive when yauzl's pieces lie end to end in it (they do). */
async function packedBytes(raw: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of raw) pieces.push(piece as Buffer);
  const first = pieces[0];
  if (!first) return Buffer.alloc(0);
  let length = 0;
  for (const piece of pieces) {
    if (piece.buffer !== first.buffer || piece.byteOffset !== first.byteOffset + length)
      return Buffer.concat(pieces);
    length += piece.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, length);
}

/** How far the inflate runs ahead of the reading, at most. */
export const AHEAD_BYTES = 8 * MB;

/**
 * Streams a part's inflated bytes to onBytes, checked to be UTF-8 and of the declared size. zlib inflates on
 * a thread of its own: each chunk is only queued when it arrives, so zlib goes on with the next at once, and
 * read in a task of its own, so the reading runs while zlib inflates (read in the 'data' event, or through an
 * async iterator that never yields to the event loop while chunks are buffered, each waited for the other:
 * a 500,000-triangle part's wall time was the sum of both).
 */
export function readAhead(
  stream: Readable,
  entry: Pick<yauzl.Entry, 'fileName' | 'uncompressedSize'> & {
    /** The size is only a limit (a part whose size comes after its data): a shorter part is not refused. */
    atMost?: boolean;
  },
  onBytes: (bytes: Uint8Array) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const utf8 = new Utf8Check();
    // Chunks, and a failure of the stream where it happened: what came before it is read (and refused with
    // its own message, as the reading in order always did) before the failure is.
    const queue: (Buffer | MeshError)[] = [];
    let queued = 0;
    let size = 0;
    let ended = false;
    let stopped = false;
    let settled = false;
    let scheduled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(err instanceof MeshError ? err : damaged());
    };
    /** The stream failed here: nothing after it is taken. */
    const stop = (err: MeshError) => {
      if (stopped) return;
      stopped = true;
      stream.destroy();
      queue.push(err);
      schedule();
    };
    const read = () => {
      scheduled = false;
      if (settled) return;
      const chunk = queue.shift();
      if (chunk instanceof MeshError) {
        fail(chunk);
        return;
      }
      if (chunk) {
        queued -= chunk.length;
        if (stream.isPaused() && queued < AHEAD_BYTES / 2) stream.resume();
        try {
          if (!utf8.push(chunk)) throw notUtf8(entry);
          for (let k = 0; k < chunk.length; k += CHUNK_BYTES) onBytes(chunk.subarray(k, k + CHUNK_BYTES));
        } catch (err) {
          fail(err);
          return;
        }
      }
      if (queue.length > 0) schedule();
      else if (ended) {
        if (size < entry.uncompressedSize && !entry.atMost) fail(damaged());
        else if (!utf8.end()) fail(notUtf8(entry));
        else {
          settled = true;
          resolve();
        }
      }
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(read);
    };
    stream.on('data', (chunk: Buffer) => {
      if (stopped) return;
      // As yauzl checks it: not a byte past the declared size.
      size += chunk.length;
      if (size > entry.uncompressedSize) {
        stop(damaged());
        return;
      }
      queue.push(chunk);
      queued += chunk.length;
      if (queued >= AHEAD_BYTES) stream.pause();
      schedule();
    });
    stream.on('end', () => {
      if (stopped) return;
      ended = true;
      schedule();
    });
    stream.on('error', () => stop(damaged()));
  });
}

export async function openArchive(bytes: Uint8Array): Promise<Archive> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  const entries = new Map<string, yauzl.Entry>();
  try {
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
    for await (const entry of zip.eachEntry()) entries.set(partKey(entry.fileName), entry);
  } catch {
    throw damaged();
  }
  let unpacked = 0;
  /** The part's entry, once its limits hold. */
  const entryToRead = (name: string): yauzl.Entry => {
    const entry = entries.get(partKey(name));
    if (!entry) throw new MeshError('3mf-model', `This 3MF file has no part '${name}'.`);
    if (entry.isEncrypted()) {
      throw new MeshError(
        '3mf-archive',
        'This 3MF file is encrypted: please export it again without a password.',
      );
    }
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new MeshError(
        '3mf-archive',
        'This 3MF file uses a compression method we cannot read (only stored and deflate): please export it again.',
      );
    }
    const size = entry.uncompressedSize;
    if (packsTooTightly(size, entry.compressedSize)) {
      throw new MeshError(
        '3mf-too-big',
        `This 3MF file's part '${entry.fileName}' unpacks to ${Math.round(size / Math.max(1, entry.compressedSize))} times its packed size: it looks like a ZIP bomb, so we did not open it.`,
      );
    }
    unpacked += size;
    if (unpacked > MAX_UNPACKED_BYTES) {
      throw new MeshError(
        '3mf-too-big',
        `This 3MF file unpacks to more than ${MAX_UNPACKED_BYTES / MB} MB of model data, more than we analyse.`,
      );
    }
    return entry;
  };
  return {
    has: (name) => entries.has(partKey(name)),
    place(name) {
      const entry = entries.get(partKey(name));
      if (!entry) return null;
      return {
        fileName: entry.fileName,
        localHeaderOffset: entry.relativeOffsetOfLocalHeader,
        compressionMethod: entry.compressionMethod,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
      };
    },
    admit(name) {
      entryToRead(name);
    },
    async readText(name, onText) {
      const entry = entryToRead(name);
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch {
        throw damaged();
      }
      const decoder = new TextDecoder('utf-8', { fatal: true });
      try {
        for await (const chunk of stream) onText(decoder.decode(chunk as Buffer, { stream: true }));
        onText(decoder.decode());
      } catch (err) {
        stream.destroy();
        if (err instanceof MeshError) throw err;
        if (err instanceof TypeError) throw notUtf8(entry);
        throw damaged();
      }
    },
    async readBytes(name, onBytes) {
      const entry = entryToRead(name);
      let stream: Readable;
      try {
        const raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
        if (entry.compressionMethod === 8) {
          // The packed bytes in one write: zlib goes through them a megabyte of output at a time without
          // waiting for this thread to hand it the next piece (yauzl cuts them into 64 kB pieces).
          const packed = await packedBytes(raw);
          const inflate = zlib.createInflateRaw(INFLATE_OPTIONS);
          inflate.end(packed);
          stream = inflate;
        } else stream = raw;
      } catch {
        throw damaged();
      }
      await readAhead(stream, entry, onBytes);
    },
    close: () => zip.close(),
  };
}
