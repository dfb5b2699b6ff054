import {
  COLORS,
  type ColorHex,
  isStrength,
  MAX_ITEM_NOTES,
  MAX_ITEM_QUANTITY,
} from '../../shared/catalog.ts';
import type { Db } from '../db/client.ts';
import type { Model } from '../db/schema.ts';
import { isOwner } from '../models/access.ts';
import { isModelId } from '../models/ids.ts';
import { findModel, isInOrderOf } from '../models/models-repository.ts';
import type { Viewer } from '../models/owner.ts';
import { modelFits, type Size } from '../models/warnings.ts';
import type { LinePrice } from '../pricing/price.ts';
import { priceModelLine } from '../pricing/price-model.ts';
import type { PricingSettings } from '../pricing/settings.ts';

// One cart line checked and priced by the server: the cart's displayed prices (POST /api/cart/quote) and
// the checkout both come from here, so the cart shows exactly what the checkout charges. The client's
// `cost` is never read. Every refusal names the file and says what is wrong.

/** A cart line as the client sends it (docs/domain.md's cart line; only these fields are read). */
export type CartLineInput = {
  filePath?: unknown;
  fileName?: unknown;
  color?: unknown;
  strength?: unknown;
  quantity?: unknown;
  notes?: unknown;
};

export type CheckedLine = {
  model: Model;
  color: ColorHex;
  strength: 1 | 2 | 3 | 4 | 5;
  quantity: number;
  notes: string;
  price: LinePrice;
};

export type LineCheck = { ok: true; line: CheckedLine } | { ok: false; error: string };

export type LineCheckDeps = { db: Db; viewer: Viewer; buildVolumeMm: Size; pricing: PricingSettings };

const colorByKey = new Map<string, ColorHex>(
  COLORS.flatMap((c) => [
    [c.hex, c.hex],
    [c.name.toLowerCase(), c.hex],
  ]),
);

/** A known color as its hex code: '#dc3545', '#DC3545' or 'red'; null for anything else. */
export function toColorHex(value: unknown): ColorHex | null {
  return typeof value === 'string' ? (colorByKey.get(value.trim().toLowerCase()) ?? null) : null;
}

/** What a message calls a line: the stored file name, else the client's (shortened), else its position. */
function labelOf(model: Model | undefined, raw: CartLineInput, index: number): string {
  if (model) return model.fileName;
  const name = typeof raw.fileName === 'string' ? raw.fileName.trim() : '';
  return name ? (name.length > 80 ? `${name.slice(0, 79)}…` : name) : `Item ${index + 1}`;
}

export const LINE_MSG = {
  notALine: (n: number) => `Item ${n} of the cart is not valid.`,
  unavailable: (label: string) =>
    `"${label}" is not available any more. Remove it from your cart and upload the model again.`,
  color: (label: string) => `"${label}": choose one of our colors.`,
  strength: (label: string) => `"${label}": the strength must be 1 to 5.`,
  quantity: (label: string) =>
    `"${label}": the quantity must be a whole number from 1 to ${MAX_ITEM_QUANTITY}.`,
  notes: (label: string) => `"${label}": notes can be at most ${MAX_ITEM_NOTES} characters.`,
  tooBig: (label: string, b: Size) =>
    `"${label}" is too big for our printer (at most ${b.x} x ${b.y} x ${b.z} mm).`,
} as const;

/**
 * Checks one line. A model the viewer may not order (unknown, removed, someone else's) gets the same
 * message as one that never existed, so ids cannot be probed. May order: the model's owner, or the owner
 * of an earlier order holding it (re-ordering). Staff order as customers do.
 */
export async function checkCartLine(deps: LineCheckDeps, raw: unknown, index: number): Promise<LineCheck> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: LINE_MSG.notALine(index + 1) };
  }
  const input = raw as CartLineInput;
  const model = isModelId(input.filePath) ? await findModel(deps.db, input.filePath) : undefined;
  const mayOrder =
    model !== undefined &&
    (isOwner(model, deps.viewer) ||
      (deps.viewer.userId !== null && (await isInOrderOf(deps.db, model.id, deps.viewer.userId))));
  // Another customer's file name is never told: only the client's own words name a line it may not order.
  const label = labelOf(mayOrder ? model : undefined, input, index);
  if (!model || !mayOrder) return { ok: false, error: LINE_MSG.unavailable(label) };

  const color = toColorHex(input.color);
  if (!color) return { ok: false, error: LINE_MSG.color(label) };
  const strength = input.strength;
  if (!isStrength(strength)) return { ok: false, error: LINE_MSG.strength(label) };
  const quantity = input.quantity;
  if (
    typeof quantity !== 'number' ||
    !Number.isInteger(quantity) ||
    quantity < 1 ||
    quantity > MAX_ITEM_QUANTITY
  ) {
    return { ok: false, error: LINE_MSG.quantity(label) };
  }
  const notes = input.notes === undefined || input.notes === null ? '' : input.notes;
  if (typeof notes !== 'string' || notes.length > MAX_ITEM_NOTES)
    return { ok: false, error: LINE_MSG.notes(label) };
  if (!modelFits(model, deps.buildVolumeMm))
    return { ok: false, error: LINE_MSG.tooBig(label, deps.buildVolumeMm) };

  const price = priceModelLine(model, { strength, quantity }, deps.pricing);
  return { ok: true, line: { model, color, strength, quantity, notes: notes.trim(), price } };
}

/** Checks every line, in order (one query or two a line: a cart holds at most 50). */
export async function checkCartLines(deps: LineCheckDeps, raw: readonly unknown[]): Promise<LineCheck[]> {
  const out: LineCheck[] = [];
  for (const [i, item] of raw.entries()) out.push(await checkCartLine(deps, item, i));
  return out;
}
