import { COLORS, type ColorHex, DEFAULT_COLOR } from './catalog.ts';

// A line's preview in the line's colour: GET /api/models/:id/preview.png?color=<id>, the id being the
// catalog colour's name in lower case ('red'). Every stored preview is drawn once, in DEFAULT_COLOR
// (upload-service.ts, extras-service.ts), and recoloured on request (src/mesh/preview.ts).

/** The colour stored previews are drawn in: what a preview without `?color=` shows. */
export const STORED_PREVIEW_COLOR: ColorHex = DEFAULT_COLOR;

export type PreviewColorId = Lowercase<(typeof COLORS)[number]['name']>;
export const PREVIEW_COLOR_IDS = COLORS.map((c) => c.name.toLowerCase()) as [
  PreviewColorId,
  ...PreviewColorId[],
];

const idByKey = new Map<string, PreviewColorId>();
const hexById = new Map<PreviewColorId, ColorHex>();
for (const c of COLORS) {
  const id = c.name.toLowerCase() as PreviewColorId;
  idByKey.set(c.hex, id);
  idByKey.set(id, id);
  hexById.set(id, c.hex);
}

export const PREVIEW_COLOR_MSG = {
  unknown: `Unknown preview color. Ask for one of: ${PREVIEW_COLOR_IDS.join(', ')}.`,
} as const;

/** The preview colour id of a line's colour (a catalog hex or name, any case); null for anything else. */
export function previewColorId(color: string | null | undefined): PreviewColorId | null {
  if (!color) return null;
  return idByKey.get(color.trim().toLowerCase()) ?? null;
}

/** The hex of a preview colour id ('red' -> '#dc3545'). */
export function previewColorHex(id: PreviewColorId): ColorHex | undefined {
  return hexById.get(id);
}

/**
 * A preview path of this shop asking for the line's colour (`?color=red`, replacing any other). A signed
 * link is returned as it is (its signature covers its colour), as is any URL when the colour is unknown.
 */
export function previewInColor(url: string, color: string | null | undefined): string {
  const id = previewColorId(color);
  const [path, query = ''] = url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  if (!id || params.has('sig') || !/^\/api\/models\/[^/?#]+\/preview\.png$/.test(path)) return url;
  params.set('color', id);
  return `${path}?${params.toString()}`;
}
