// Binary STL: an 80-byte header, a little-endian uint32 triangle count, then 50-byte records
// (normal, three vertices as float32, a 2-byte attribute). The count is only ever compared with
// what arrives: nothing is allocated from it (a header may claim 0xFFFFFFFF triangles).

import { badCoordinate, MAX_COORDINATE } from './coordinates.ts';
import { MeshError } from './errors.ts';
import type { Geometry } from './geometry.ts';
import { keepShape } from './keep-shapes.ts';
import type { Topology } from './topology.ts';
import { BATCH_TRIANGLES, type ChunkParser, type TriangleSink } from './types.ts';

export const HEADER_BYTES = 84;
export const RECORD_BYTES = 50;

/** Fewer stray bytes than a record after the last triangle (a newline, padding) are tolerated. */
export const MAX_TRAILING_BYTES = RECORD_BYTES - 1;

export function trailingWarning(extraBytes: number): string {
  return `The STL file has ${extraBytes} stray byte${extraBytes === 1 ? '' : 's'} after its last triangle; ${extraBytes === 1 ? 'it was' : 'they were'} ignored.`;
}

export function truncatedMessage(declared: number, held: number): string {
  return `This STL file is truncated: its header promises ${declared} triangles but the file holds ${held}.`;
}

export function trailingMessage(declared: number, extraBytes: number): string {
  return `This STL file has ${extraBytes} bytes of extra data after the ${declared} triangles its header promises.`;
}

/**
 * Measures records in place when given a Geometry and a Topology (the analysis: no copy), and
 * hands triangles in batches to a sink (preview) when given one.
 */
export class BinaryStlParser implements ChunkParser {
  /** Let go once it is closed: its records are then no longer decoded. */
  private sink: TriangleSink | null;
  private readonly geometry: Geometry | null;
  private readonly topology: Topology | null;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerLength = 0;
  private declared = 0;
  /** A record split between two chunks. */
  private readonly partial = new Uint8Array(RECORD_BYTES);
  private readonly partialView = new DataView(this.partial.buffer);
  private partialLength = 0;
  private records = 0;
  private extraBytes = 0;
  private readonly batch = new Float64Array(9 * BATCH_TRIANGLES);
  private batchCount = 0;

  constructor(sink: TriangleSink | null, geometry: Geometry | null = null, topology: Topology | null = null) {
    this.sink = sink;
    this.geometry = geometry;
    this.topology = topology;
  }

  push(chunk: Uint8Array): void {
    let pos = 0;
    let n = chunk.length;
    if (this.headerLength < HEADER_BYTES) {
      const take = Math.min(HEADER_BYTES - this.headerLength, n);
      this.header.set(chunk.subarray(0, take), this.headerLength);
      this.headerLength += take;
      pos = take;
      if (this.headerLength < HEADER_BYTES) return;
      this.declared = new DataView(this.header.buffer).getUint32(80, true);
    }
    // Bytes past the declared records are only counted, never parsed.
    const expected = (this.declared - this.records) * RECORD_BYTES - this.partialLength;
    if (n - pos > expected) {
      this.extraBytes += n - pos - expected;
      n = pos + expected;
    }
    if (pos === n) return;
    if (this.partialLength > 0) {
      const take = Math.min(RECORD_BYTES - this.partialLength, n - pos);
      this.partial.set(chunk.subarray(pos, pos + take), this.partialLength);
      this.partialLength += take;
      pos += take;
      if (this.partialLength < RECORD_BYTES) return;
      this.partialLength = 0;
      this.readRecords(this.partialView, 0, 1);
    }
    const whole = Math.floor((n - pos) / RECORD_BYTES);
    if (whole > 0) {
      const view = new DataView(chunk.buffer, chunk.byteOffset, n);
      // Calls of one batch each: short loops that V8 optimises fully.
      for (let done = 0; done < whole; ) {
        // Calls end on multiples of BATCH_TRIANGLES from the file's start, whatever the chunks.
        const count = Math.min(whole - done, BATCH_TRIANGLES - (this.records % BATCH_TRIANGLES));
        this.readRecords(view, pos, count);
        pos += count * RECORD_BYTES;
        done += count;
      }
    }
    if (pos < n) {
      this.partial.set(chunk.subarray(pos, n), 0);
      this.partialLength = n - pos;
    }
  }

  finish(): void {
    if (this.headerLength < HEADER_BYTES) {
      throw new MeshError(
        'stl-too-small',
        `This file is too small to be an STL model: ${this.headerLength} bytes, where a binary STL needs at least 84.`,
      );
    }
    if (this.extraBytes > MAX_TRAILING_BYTES) {
      throw new MeshError('stl-trailing-data', trailingMessage(this.declared, this.extraBytes));
    }
    if (this.records < this.declared) {
      throw new MeshError('stl-truncated', truncatedMessage(this.declared, this.records));
    }
    this.flush();
  }

  /** After finish: notes about a file that was read anyway. */
  warnings(): string[] {
    return this.extraBytes > 0 ? [trailingWarning(this.extraBytes)] : [];
  }

  private readRecords(view: DataView, offset: number, count: number): void {
    if (this.geometry !== null) this.geometry.addStlRecords(view, offset, count, this.records);
    if (this.topology !== null) this.topology.addStlRecords(view, offset, count);
    if (this.sink !== null) this.copyRecords(view, offset, count);
    this.records += count;
  }

  private copyRecords(view: DataView, offset: number, count: number): void {
    const batch = this.batch;
    let b = this.batchCount * 9;
    let o = offset + 12;
    for (let r = 0; r < count; r++, o += RECORD_BYTES) {
      for (let c = 0; c < 9; c++) {
        const v = view.getFloat32(o + 4 * c, true);
        if (!(Math.abs(v) <= MAX_COORDINATE)) throw badCoordinate(v, `in triangle ${this.records + r + 1}`);
        batch[b + c] = v;
      }
      b += 9;
    }
    this.batchCount += count;
    if (this.batchCount === BATCH_TRIANGLES) this.flush();
  }

  private flush(): void {
    if (this.batchCount > 0 && this.sink !== null) {
      this.sink.triangles(this.batch, null, this.batchCount);
      if (this.sink.closed) this.sink = null;
    }
    this.batchCount = 0;
  }
}

// One instance kept for the thread's life keeps the class's maps across collections (keep-shapes.ts).
keepShape(new BinaryStlParser(null));
