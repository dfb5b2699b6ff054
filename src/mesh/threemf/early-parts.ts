// A 3MF upload's model parts read while the file still arrives (issue #27): a ZIP's directory is at its end,
// but each part's data follows a local header of its own, so the parts can be inflated and read in the
// order they come. What this reads is only a head start: read3mf takes a part from here only when the
// central directory, read once the file is whole, places the same part at the same offset with the same
// sizes, and everything else (the package relationships, which parts the build uses, every limit and
// refusal) is decided there as for any 3MF. Anything unexpected here (a stored or encrypted part, ZIP64,
// a part that fails to inflate or to read, a limit reached) ends the head start, and the rest is read
// from the whole file. Past the last byte it begins nothing, and the part in progress goes on only if the
// archive, whole by then and opened as read3mf opens it, places it there as its start part (which the whole
// read reads in any case): a part nothing uses never adds to the customer's wait. A given-up upload stops
// it at the next megabyte.

import zlib from 'node:zlib';
import { MeshError } from '../errors.ts';
import {
  type Archive,
  INFLATE_OPTIONS,
  MAX_UNPACKED_BYTES,
  openArchive,
  type PartPlace,
  packsTooTightly,
  partKey,
  readAhead,
} from './archive.ts';
import { createModelPartReader, type ModelPart, type TriangleBudget } from './model-part.ts';
import { startPart } from './read.ts';

/** A file that grows as an upload lands (follow-file.ts in the server). */
export interface GrowingFile {
  /** Waits until at least `want` bytes are in the file or it has ended; the bytes there now. */
  waitFor(want: number): Promise<number>;
  /** Whether the whole file is there. Both throw when the upload was given up. */
  ended(): boolean;
  /** Bytes at [position, position + length), all of which are in the file. */
  read(position: number, length: number): Uint8Array;
}

/** A model part read from its local header, and where it lay. */
export interface EarlyPart {
  part: ModelPart;
  /** The triangles it counted against the file's budget. */
  triangles: number;
  place: Omit<PartPlace, 'fileName'>;
}

/** Parts read early, by part key. */
export type EarlyParts = Map<string, EarlyPart>;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const DESCRIPTOR = 0x08074b50;
const LOCAL_HEADER_BYTES = 30;
/** General purpose flags: encrypted, sizes in a data descriptor after the data, UTF-8 name. */
const ENCRYPTED = 1;
const SIZES_AFTER = 8;
const UTF8_NAME = 0x800;
const DEFLATE = 8;
/**
 * Parts that are not models (metadata, thumbnails) whose sizes follow their data are inflated through to
 * find their end, up to this many bytes in all.
 */
const MAX_SKIPPED_BYTES = 16 * 1024 * 1024;
/** Entries walked at most (a slicer writes a few dozen; the whole read handles any number). */
const MAX_ENTRIES = 4096;
/** Model parts read at most (Bambu Studio writes one an object). */
const MAX_PARTS = 256;
/** Packed bytes handed to zlib at a time; the first slice of a part whose size follows its data. */
const FIRST_SLICE_BYTES = 16 * 1024;
const SLICE_BYTES = 1024 * 1024;

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** Whether a part is still read: true, false, or not known yet (being decided). */
type Wanted = boolean | Promise<boolean>;

/**
 * Whether the whole read will read the part whose local header is at `at`, as its start part: the upload
 * has ended, so the archive is opened as read3mf opens it. False for anything it would refuse.
 */
async function isStartPartAt(file: GrowingFile, key: string, at: number): Promise<boolean> {
  const size = await file.waitFor(Number.POSITIVE_INFINITY);
  let archive: Archive;
  try {
    archive = await openArchive(file.read(0, size));
  } catch {
    return false;
  }
  try {
    if (archive.place(key)?.localHeaderOffset !== at) return false;
    return partKey(await startPart(archive)) === key;
  } catch (err) {
    if (err instanceof MeshError) return false;
    throw err;
  } finally {
    archive.close();
  }
}

/** Why the head start ended early (tests). */
class Stop extends Error {}

/**
 * Reads the model parts (deflated `*.model` entries) of a 3MF file as it arrives, until its central
 * directory or anything this does not follow. Never refuses the file: the whole read does that. Once the
 * upload has ended no part is begun, and only the start part is finished (see isStartPartAt).
 */
export async function readEarlyParts(file: GrowingFile): Promise<EarlyParts> {
  const parts: EarlyParts = new Map();
  let at = 0;
  let unpacked = 0;
  let skipped = 0;
  // One budget for every part read here: never more triangles in memory than one file may hold.
  const budget: TriangleBudget = { used: 0 };
  try {
    for (let entries = 0; entries < MAX_ENTRIES && parts.size < MAX_PARTS && !file.ended(); entries++) {
      if ((await file.waitFor(at + LOCAL_HEADER_BYTES)) < at + LOCAL_HEADER_BYTES) break;
      const head = file.read(at, LOCAL_HEADER_BYTES);
      if (u32(head, 0) !== LOCAL_HEADER) break; // the central directory, or not a ZIP
      const flags = u16(head, 6);
      const method = u16(head, 8);
      const compressedSize = u32(head, 18);
      const uncompressedSize = u32(head, 22);
      const nameLength = u16(head, 26);
      const dataAt = at + LOCAL_HEADER_BYTES + nameLength + u16(head, 28);
      if ((await file.waitFor(dataAt)) < dataAt) break;
      const nameBytes = file.read(at + LOCAL_HEADER_BYTES, nameLength);
      const sizesAfter = (flags & SIZES_AFTER) !== 0;
      if (flags & ENCRYPTED) break;
      if (!sizesAfter && (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff)) break; // ZIP64
      // yauzl reads a name without the UTF-8 flag as CP437: such a name is matched only when it is ASCII.
      const plainName = (flags & UTF8_NAME) !== 0 || nameBytes.every((b) => b < 0x80);
      const key = partKey(new TextDecoder().decode(nameBytes));
      if (!plainName || method !== DEFLATE || !/\.model$/.test(key)) {
        if (!sizesAfter) at = dataAt + compressedSize;
        else if (method !== DEFLATE)
          break; // its end cannot be told
        else {
          // Its end is where its deflate ends: inflated through, and dropped.
          const through = await inflateFrom(file, dataAt, null, drain, {
            maxSize: MAX_SKIPPED_BYTES - skipped,
          });
          skipped += through.size;
          at = await afterDescriptor(file, dataAt + through.packed, through);
        }
        continue;
      }
      const limit = sizesAfter ? MAX_UNPACKED_BYTES - unpacked : uncompressedSize;
      if (limit > MAX_UNPACKED_BYTES - unpacked) break;
      if (!sizesAfter && packsTooTightly(uncompressedSize, compressedSize)) break;
      // Past the last byte the part goes on only if the whole read will read it: the file, whole by then, is
      // opened as read3mf opens it, and must name this part, here, as its start part.
      const here = at;
      let verdict: boolean | null = null;
      let deciding: Promise<boolean> | null = null;
      const wanted = (): Wanted => {
        if (!file.ended()) return true; // throws when the upload was given up
        if (verdict !== null) return verdict;
        if (deciding === null) {
          deciding = isStartPartAt(file, key, here).then((v) => {
            verdict = v;
            return v;
          });
          deciding.catch(() => {}); // awaited by the inflating loop, which reports it
        }
        return deciding;
      };
      const read = await readPart(
        file,
        key,
        dataAt,
        sizesAfter ? null : compressedSize,
        limit,
        budget,
        wanted,
      );
      unpacked += read.size;
      parts.set(key, {
        part: read.part,
        triangles: read.triangles,
        place: {
          localHeaderOffset: at,
          compressionMethod: method,
          compressedSize: read.packed,
          uncompressedSize: read.size,
        },
      });
      at = dataAt + read.packed;
      if (sizesAfter) at = await afterDescriptor(file, at, read);
    }
  } catch (err) {
    if (!(err instanceof Stop) && !(err instanceof MeshError)) throw err;
  }
  return parts;
}

/** Inflates and reads one part from dataAt; its packed size, when known, else up to the deflate's end. */
async function readPart(
  file: GrowingFile,
  key: string,
  dataAt: number,
  packedSize: number | null,
  limit: number,
  budget: TriangleBudget,
  wanted: () => Wanted,
): Promise<{ part: ModelPart; triangles: number; packed: number; size: number }> {
  const before = budget.used;
  const reader = createModelPartReader(key, budget);
  // What zlib has inflated ahead is dropped too once the part is no longer wanted (read on while that is
  // being decided). An upload given up is reported as such, not as the damaged part readAhead would make it.
  let givenUp: unknown = null;
  const onBytes = (bytes: Uint8Array) => {
    let w: Wanted;
    try {
      w = wanted();
    } catch (err) {
      givenUp = err;
      throw err;
    }
    if (w === false) throw new Stop('not wanted');
    reader.writeBytes(bytes);
  };
  const { packed, size } = await inflateFrom(
    file,
    dataAt,
    packedSize,
    (inflate) =>
      readAhead(inflate, { fileName: key, uncompressedSize: limit, atMost: packedSize === null }, onBytes),
    { maxSize: limit, wanted },
  ).catch((err: unknown) => {
    throw givenUp ?? err;
  });
  return { part: reader.end(), triangles: budget.used - before, packed, size };
}

/**
 * Inflates the deflated data at dataAt as it lands (its packed size when known, else up to the deflate's
 * end), handing zlib's output stream to consume, whose promise ends with the reading; the packed and
 * inflated sizes. Packing is checked as it inflates (a ZIP bomb ends the head start).
 */
async function inflateFrom(
  file: GrowingFile,
  dataAt: number,
  packedSize: number | null,
  consume: (inflate: zlib.InflateRaw) => Promise<void>,
  options: { maxSize: number; wanted?: () => Wanted },
): Promise<{ packed: number; size: number }> {
  const { maxSize } = options;
  // Asked at every slice: file.ended() also throws when the upload was given up.
  const wanted =
    options.wanted ??
    (() => {
      file.ended();
      return true;
    });
  const inflate = zlib.createInflateRaw(INFLATE_OPTIONS);
  let size = 0;
  inflate.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxSize) inflate.destroy(new Stop('too big'));
    else if (packsTooTightly(size, inflate.bytesWritten)) inflate.destroy(new Stop('packed too tightly'));
  });
  let inflated = false;
  inflate.once('end', () => {
    inflated = true;
  });
  const reading = consume(inflate);
  reading.catch(() => {});
  const end = packedSize === null ? Number.POSITIVE_INFINITY : dataAt + packedSize;
  let position = dataAt;
  // Its end unknown, a part starts with small slices (most such parts are small: metadata, settings).
  let sliceBytes = packedSize === null ? FIRST_SLICE_BYTES : SLICE_BYTES;
  try {
    while (position < end && !inflated && !inflate.destroyed) {
      const available = Math.min(end, await file.waitFor(position + 1));
      if (available <= position) break; // the file ended inside the part
      while (position < available && !inflated && !inflate.destroyed) {
        if (!(await wanted())) throw new Stop('not wanted');
        const slice = file.read(position, Math.min(sliceBytes, available - position));
        position += slice.length;
        sliceBytes = Math.min(SLICE_BYTES, 2 * sliceBytes);
        if (packedSize === null) {
          // Its end unknown: each slice is handed over once zlib has taken the last, so that what follows
          // the deflate's end (zlib takes none of it) is not read on.
          await written(inflate, slice);
          if (inflate.bytesWritten < position - dataAt) break;
        } else if (!inflate.write(slice)) await drained(inflate);
      }
    }
    if (!inflated && !inflate.destroyed) inflate.end();
    await reading;
  } finally {
    inflate.destroy(); // a wait that threw (the upload given up) leaves nothing running
  }
  const packed = inflate.bytesWritten;
  if (packedSize !== null && packed !== packedSize) throw new Stop('packed size');
  return { packed, size };
}

/** Reads a stream through to its end, keeping nothing (a part this does not read, to find where it ends). */
function drain(inflate: zlib.InflateRaw): Promise<void> {
  return new Promise((resolve, reject) => {
    inflate.on('data', () => {});
    inflate.once('end', resolve);
    inflate.once('error', () => reject(new Stop('inflate')));
    inflate.once('close', () => reject(new Stop('closed')));
  });
}

/** Writes a slice, until zlib has taken it (or has stopped). */
function written(inflate: zlib.InflateRaw, slice: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      inflate.off('close', done);
      resolve();
    };
    inflate.on('close', done);
    inflate.write(slice, done);
  });
}

/** Until zlib takes more, or has stopped (the reading failed and destroyed it). */
function drained(inflate: zlib.InflateRaw): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      inflate.off('drain', done);
      inflate.off('close', done);
      resolve();
    };
    inflate.on('drain', done);
    inflate.on('close', done);
  });
}

/**
 * Where the next header starts after a part whose sizes follow its data: its data descriptor (with a
 * signature or without) must name the sizes read, and a header must follow it. A ZIP64 descriptor (8-byte
 * sizes) is not followed: the head start ends there.
 */
async function afterDescriptor(
  file: GrowingFile,
  at: number,
  read: { packed: number; size: number },
): Promise<number> {
  const available = await file.waitFor(at + 28);
  const bytes = file.read(at, Math.min(28, available - at));
  const header = (k: number) =>
    k + 4 <= bytes.length && (u32(bytes, k) === LOCAL_HEADER || u32(bytes, k) === CENTRAL_HEADER);
  for (const start of u32(bytes, 0) === DESCRIPTOR ? [4, 0] : [0]) {
    // crc, then packed and unpacked sizes of 4 bytes each.
    const sizes32 = start + 4;
    if (u32(bytes, sizes32) === read.packed && u32(bytes, sizes32 + 4) === read.size && header(sizes32 + 8))
      return at + sizes32 + 8;
  }
  throw new Stop('data descriptor');
}
