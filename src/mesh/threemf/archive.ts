// The ZIP side of a 3MF file (an OPC package): which parts it holds, and each part's text streamed out of
// the archive, never inflated whole. A part must inflate to exactly the size its directory entry declares
// (yauzl checks it for readText, readBytes itself), so the limits below hold on the declared sizes: a part
// over them is never opened.

import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { MeshError } from '../errors.ts';
import { Utf8Check } from './utf8.ts';

/** Text we inflate and parse for one model, over all its parts. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
/** Model XML packs 3-20x; a part of a few MB that packs over this is a ZIP bomb. */
export const MAX_PACKING_RATIO = 200;
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;

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

export interface Archive {
  has(name: string): boolean;
  /** Streams one part's text (UTF-8) to onText, chunk by chunk. */
  readText(name: string, onText: (text: string) => void): Promise<void>;
  /** Streams one part's bytes, checked to be UTF-8, to onBytes, in chunks of at most a megabyte. */
  readBytes(name: string, onBytes: (bytes: Uint8Array) => void): Promise<void>;
  close(): void;
}

function notUtf8(entry: yauzl.Entry): MeshError {
  return new MeshError(
    '3mf-xml',
    `This 3MF file's part '${entry.fileName}' is not UTF-8 text, as 3MF requires.`,
  );
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
    if (size >= RATIO_CHECKED_FROM_BYTES && size > MAX_PACKING_RATIO * Math.max(1, entry.compressedSize)) {
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
        stream =
          entry.compressionMethod === 8
            ? pipeline(raw, zlib.createInflateRaw(INFLATE_OPTIONS), () => {})
            : raw;
      } catch {
        throw damaged();
      }
      const utf8 = new Utf8Check();
      let size = 0;
      try {
        for await (const chunk of stream) {
          const bytes = chunk as Buffer;
          // As yauzl checks it: not a byte past the declared size.
          size += bytes.length;
          if (size > entry.uncompressedSize) throw damaged();
          if (!utf8.push(bytes)) throw notUtf8(entry);
          for (let k = 0; k < bytes.length; k += CHUNK_BYTES) onBytes(bytes.subarray(k, k + CHUNK_BYTES));
        }
        if (size < entry.uncompressedSize) throw damaged();
        if (!utf8.end()) throw notUtf8(entry);
      } catch (err) {
        stream.destroy();
        if (err instanceof MeshError) throw err;
        throw damaged();
      }
    },
    close: () => zip.close(),
  };
}
