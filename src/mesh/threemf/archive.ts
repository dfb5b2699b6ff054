// The ZIP side of a 3MF file (an OPC package): which parts it holds, and each part's text streamed out of
// the archive, never inflated whole. yauzl checks that a part inflates to exactly the size its directory
// entry declares, so the limits below hold on the declared sizes: a part over them is never opened.

import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { MeshError } from '../errors.ts';

/** Text we inflate and parse for one model, over all its parts. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
/** Model XML packs 3-20x; a part of a few MB that packs over this is a ZIP bomb. */
export const MAX_PACKING_RATIO = 200;
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;

const MB = 1024 * 1024;

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
  close(): void;
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
  return {
    has: (name) => entries.has(partKey(name)),
    async readText(name, onText) {
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
        if (err instanceof TypeError) {
          throw new MeshError(
            '3mf-xml',
            `This 3MF file's part '${entry.fileName}' is not UTF-8 text, as 3MF requires.`,
          );
        }
        throw damaged();
      }
    },
    close: () => zip.close(),
  };
}
