import { Readable } from 'node:stream';
import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { box, triangles } from '../../mesh/testing/generate.ts';
import { readViewFacts, VIEW_MAX_TRIANGLES, viewFactsOf } from './view-facts.ts';
import { buildViewMesh } from './view-mesh.ts';

// The facts a view mesh writes into its GLB, read back from the head of the stored file's stream (as the
// view route does), with the file still sent whole.

/** The bytes as a stream of `size`-byte chunks. */
const chunked = (bytes: Uint8Array, size: number) =>
  Readable.from(
    (function* () {
      for (let k = 0; k < bytes.length; k += size) yield Buffer.from(bytes.subarray(k, k + size));
    })(),
    { objectMode: false },
  );

async function drain(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const small = { triangles: 12, viewTriangles: 12 };

describe('the facts of a view mesh', () => {
  it('reads them from the head of the stream, however it is chunked, and sends the file whole', async () => {
    const { glb } = await buildViewMesh(Float32Array.from(triangles(box(10, 20, 30))));
    for (const size of [1, 7, 64, 65536]) {
      const read = await readViewFacts({ stream: chunked(glb, size), size: glb.length }, small);
      expect(read.facts, `${size}-byte chunks`).toEqual({ simplified: false });
      expect(read.stored.size).toBe(glb.length);
      expect((await drain(read.stored.stream)).equals(Buffer.from(glb)), `${size}-byte chunks`).toBe(true);
    }
  });

  it('needs the whole JSON chunk, and knows a GLB without facts or bytes that are not one', async () => {
    const { glb } = await buildViewMesh(Float32Array.from(triangles(box(1, 1, 1))));
    expect(viewFactsOf(glb.subarray(0, 19))).toBe('more');
    const jsonEnd = 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
    expect(viewFactsOf(glb.subarray(0, jsonEnd - 1))).toBe('more');
    expect(viewFactsOf(glb.subarray(0, jsonEnd))).toEqual({ simplified: false });
    expect(viewFactsOf(new TextEncoder().encode('solid cube\nendsolid cube\n'))).toBeNull();
    const older = await new NodeIO().writeBinary(new Document());
    expect(viewFactsOf(older)).toBeNull();
  });

  it('takes an older GLB (no facts) as simplified only when its model was over the limit and it has fewer', async () => {
    const older = await new NodeIO().writeBinary(new Document());
    const facts = async (model: { triangles: number; viewTriangles: number | null }) =>
      (await readViewFacts({ stream: chunked(older, 4096), size: older.length }, model)).facts.simplified;
    expect(await facts({ triangles: 30_636, viewTriangles: 30_632 })).toBe(false);
    expect(await facts({ triangles: VIEW_MAX_TRIANGLES + 1, viewTriangles: VIEW_MAX_TRIANGLES + 1 })).toBe(
      false,
    );
    expect(await facts({ triangles: 2 * VIEW_MAX_TRIANGLES, viewTriangles: VIEW_MAX_TRIANGLES })).toBe(true);
  });

  it('sends a file shorter than a GLB head as it is', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const read = await readViewFacts({ stream: chunked(bytes, 2), size: 3 }, small);
    expect(read.facts).toEqual({ simplified: false });
    expect([...(await drain(read.stored.stream))]).toEqual([1, 2, 3]);
  });
});
