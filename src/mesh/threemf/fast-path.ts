// The model part reader's byte path: the inflated bytes of a model part, read without decoding the runs of
// plain <vertex> and <triangle> children that make up almost all of it. Those runs are read by the
// WebAssembly engine (wasm/text-fast.as.ts: readVertices, readTriangles) straight to numbers, bit for bit
// the numbers saxes' reading gives them; everything else, and every child the engine does not take whole,
// is decoded and given to saxes, which stays the judge of the XML. The runs are ASCII, so the text saxes is
// given is the part's text without them, and a character cut by a chunk's end is decoded whole.

import { ModelXmlEngine } from '../wasm/text-engine.ts';

/** What the byte path needs of the reader (model-part.ts). */
export interface LaneHost {
  /**
   * The children saxes has left to the lane now: 'vertex' or 'triangle' right after a mesh's <vertices> or
   * <triangles> tag or one of its whole children, null anywhere else.
   */
  lane(): 'vertex' | 'triangle' | null;
  /** Whether saxes is inside a mesh's <vertices> or <triangles>. */
  inContainer(): boolean;
  /** Gives saxes the next text of the part. */
  give(text: string): void;
  /**
   * Reads one child the engine left (a number it does not read, say) with the text lane, as saxes would;
   * false if that lane does not read it either.
   */
  readChild(text: string, lane: 'vertex' | 'triangle'): boolean;
  /** The part's unit, in mm. */
  unit(): number;
  /** count vertices (x, y, z in mm) and triangles (v1, v2, v3; the largest index given) read by the lane. */
  addVertices(xyz: Float64Array, count: number): void;
  addTriangles(v123: Int32Array, count: number, largest: number): void;
}

/** The longest text of a cut-off child the lane keeps for the next chunk (plain children are short). */
const MAX_CARRY = 1024;
const GT = 0x3e;

export function createBytePath(host: LaneHost) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let engine: ModelXmlEngine | null = null;
  /** The bytes of a child cut off at the end of a chunk, read with the next one. */
  let carry: Uint8Array | null = null;

  const give = (bytes: Uint8Array, from: number, to: number) => {
    if (to > from) host.give(decoder.decode(bytes.subarray(from, to), { stream: true }));
  };

  /** The lane on bytes[from, n), loaded in the engine; returns where it stopped. */
  const runLane = (lane: 'vertex' | 'triangle', from: number, n: number): number => {
    const e = engine!;
    let i = from;
    do {
      if (lane === 'vertex') {
        const count = e.readVertices(i, n, host.unit());
        if (count > 0) host.addVertices(e.vertices, count);
      } else {
        const count = e.readTriangles(i, n);
        if (count > 0) host.addTriangles(e.triangles, count, e.largest);
      }
      i = e.end;
    } while (e.full);
    return i;
  };

  const write = (chunk: Uint8Array) => {
    if (carry === null) {
      feed(chunk);
      return;
    }
    // The cut child, completed up to the chunk's first '>' (where a plain child ends), then the rest.
    const gt = chunk.indexOf(GT);
    const head = gt < 0 ? chunk.length : gt + 1;
    const joint = new Uint8Array(carry.length + head);
    joint.set(carry);
    joint.set(chunk.subarray(0, head), carry.length);
    carry = null;
    feed(joint);
    if (head < chunk.length) feed(chunk.subarray(head));
  };

  /** Reads bytes; a child cut off at their end is kept in carry. */
  const feed = (bytes: Uint8Array) => {
    const n = bytes.length;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, n);
    let loaded = false;
    // Where the words of the lane's tags come next (-1: not in this chunk), each searched once per pass.
    let vertices = -2;
    let triangles = -2;
    let pos = 0;
    while (pos < n) {
      const lane = host.lane();
      if (lane === null) {
        // saxes reads on up to the '>' after the next place the lane may start: the tag of a mesh's <vertices>
        // or <triangles>, the end of a child inside one, or (at a chunk's start) a tag cut by the chunk.
        let at = pos;
        if (pos > 0 && !host.inContainer()) {
          if (vertices === -2 || (vertices >= 0 && vertices < pos))
            vertices = buffer.indexOf('vertices', pos);
          if (triangles === -2 || (triangles >= 0 && triangles < pos))
            triangles = buffer.indexOf('triangles', pos);
          at = vertices < 0 ? triangles : triangles < 0 ? vertices : Math.min(vertices, triangles);
        }
        const gt = at < 0 ? -1 : buffer.indexOf(GT, at);
        const end = gt < 0 ? n : gt + 1;
        give(bytes, pos, end);
        pos = end;
        continue;
      }
      if (!loaded) {
        engine ??= new ModelXmlEngine();
        engine.load(bytes, 0, n);
        loaded = true;
      }
      const stop = runLane(lane, pos, n);
      if (stop >= n) return;
      // What the engine does not read, the text lane or else saxes does, up to its '>'. A child with no '>'
      // before the chunk's end may be plain but cut off: it is read with the next chunk, unless it is too
      // long to be plain.
      const gt = buffer.indexOf(GT, stop);
      if (gt < 0 && n - stop <= MAX_CARRY) {
        carry = bytes.slice(stop);
        return;
      }
      const end = gt < 0 ? n : gt + 1;
      const text = decoder.decode(bytes.subarray(stop, end), { stream: true });
      if (gt < 0 || !host.readChild(text, lane)) host.give(text);
      pos = end;
    }
  };

  return {
    write,
    /** The end of the part: what is left goes to saxes. */
    end() {
      if (carry !== null) give(carry, 0, carry.length);
      carry = null;
      host.give(decoder.decode());
      engine?.release();
      engine = null;
    },
  };
}
