import { Readable } from 'node:stream';
import type { Model } from '../db/schema.ts';
import type { StoredFile } from '../storage/file-store.ts';

// What a view mesh says of itself, written into its GLB's extras where it is made (view-mesh.ts) and read
// back by the view route for its X-View-Simplified header: whether the simplifier ran and took triangles
// off. Counting triangles cannot tell: the view also leaves out faces that draw nothing (degenerate or
// repeated), so a model's view often has fewer triangles than its file without being simplified.

export type ViewFacts = { simplified: boolean };

/** The most triangles drawn: smooth in the viewer, and quick to download and decode on a phone. */
export const VIEW_MAX_TRIANGLES = 300_000;

/** The GLB's top-level extras that carry the facts. */
export function viewExtras(facts: ViewFacts): Record<string, unknown> {
  return { simplified: facts.simplified };
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const JSON_CHUNK = 0x4e4f534a; // 'JSON'
/** The GLB header (12 bytes) and the JSON chunk's own (8). */
const HEAD_BYTES = 20;
/** A view mesh's JSON is about a kilobyte: more is not one of ours, and is not read. */
const MAX_JSON_BYTES = 64 * 1024;

/**
 * The facts in the first bytes of a GLB: 'more' until they hold its whole JSON chunk; null for a GLB
 * without them (made before they were written) or bytes that are not one.
 */
export function viewFactsOf(head: Uint8Array): ViewFacts | null | 'more' {
  if (head.length < HEAD_BYTES) return 'more';
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(16, true) !== JSON_CHUNK) return null;
  const length = view.getUint32(12, true);
  if (length > MAX_JSON_BYTES) return null;
  if (head.length < HEAD_BYTES + length) return 'more';
  try {
    const json = JSON.parse(new TextDecoder().decode(head.subarray(HEAD_BYTES, HEAD_BYTES + length)));
    const simplified = json?.extras?.simplified;
    return typeof simplified === 'boolean' ? { simplified } : null;
  } catch {
    return null;
  }
}

/**
 * Reads the stored view mesh's facts from the head of its stream, and gives the file back to be sent whole
 * (the head, then the rest). A view made before the facts were written is taken as simplified only when its
 * model had more triangles than the simplifier's limit and the view fewer.
 */
export async function readViewFacts(
  stored: StoredFile,
  model: Pick<Model, 'triangles' | 'viewTriangles'>,
): Promise<{ facts: ViewFacts; stored: StoredFile }> {
  const source = stored.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let facts: ViewFacts | null | 'more' = 'more';
  let ended = false;
  try {
    while (facts === 'more') {
      const next = await source.next();
      if (next.done) {
        ended = true;
        break;
      }
      chunks.push(next.value);
      facts = viewFactsOf(chunks.length === 1 ? next.value : Buffer.concat(chunks));
    }
  } catch (err) {
    await source.return?.();
    throw err;
  }
  const head = Buffer.concat(chunks);
  async function* whole() {
    try {
      yield head;
      while (!ended) {
        const next = await source.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await source.return?.();
    }
  }
  const legacy = model.triangles > VIEW_MAX_TRIANGLES && (model.viewTriangles ?? Infinity) < model.triangles;
  return {
    facts: facts !== null && facts !== 'more' ? facts : { simplified: legacy },
    stored: { stream: Readable.from(whole(), { objectMode: false }), size: stored.size },
  };
}
