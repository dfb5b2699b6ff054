import { recolorPreviewPng } from '../../mesh/preview.ts';
import { type PreviewColorId, previewColorHex, STORED_PREVIEW_COLOR } from '../../shared/preview-color.ts';

// A stored preview in a line's colour (GET /api/models/:id/preview.png?color=red): recoloured from the
// stored picture on first request, then kept in memory, least recently used first out, within a byte
// bound. A stored preview never changes (a new one gets a new key), so nothing kept goes stale. Requests
// for one that is being made wait for it instead of making it again.

/** About 650 recoloured 512 x 512 previews. */
export const DEFAULT_TINT_CACHE_BYTES = 32 * 1024 * 1024;

export type Recolor = (png: Uint8Array, fromHex: string, toHex: string) => Promise<Uint8Array>;

export type TintedPreviews = {
  /** The preview stored under `previewKey` in `color`; `read` gives the stored PNG when it must be made. */
  get(previewKey: string, color: PreviewColorId, read: () => Promise<Uint8Array>): Promise<Uint8Array>;
  /** What is kept now (tests, logs). */
  stats(): { entries: number; bytes: number };
};

export function createTintedPreviews(options: { maxBytes?: number; recolor?: Recolor } = {}): TintedPreviews {
  const maxBytes = options.maxBytes ?? DEFAULT_TINT_CACHE_BYTES;
  const recolor = options.recolor ?? recolorPreviewPng;
  /** Insertion order is use order: the first entry is the least recently used. */
  const kept = new Map<string, Uint8Array>();
  const making = new Map<string, Promise<Uint8Array>>();
  let bytes = 0;

  function keep(key: string, png: Uint8Array) {
    if (png.length > maxBytes) return;
    kept.set(key, png);
    bytes += png.length;
    for (const [old, oldPng] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(old);
      bytes -= oldPng.length;
    }
  }

  return {
    async get(previewKey, color, read) {
      const key = `${previewKey}:${color}`;
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const pending = making.get(key);
      if (pending) return pending;
      const hex = previewColorHex(color);
      if (!hex) throw new Error(`Not a preview colour: ${color}`);
      const job = (async () => recolor(await read(), STORED_PREVIEW_COLOR, hex))();
      making.set(key, job);
      try {
        const png = await job;
        keep(key, png);
        return png;
      } finally {
        making.delete(key);
      }
    },
    stats: () => ({ entries: kept.size, bytes }),
  };
}
