import type { CartItem } from '../../shared/cart.ts';
import { DEFAULT_STRENGTH, isStrength, MAX_ITEM_QUANTITY } from '../../shared/catalog.ts';

// The cart line of docs/domain.md, kept in local storage under `printCart`, and its normalisation on load.

export type { CartItem };
export type Dimensions = CartItem['dimensions'];

export type NewCartItem = Omit<CartItem, 'id' | 'strength' | 'cost' | 'quantity' | 'notes'> &
  Partial<Pick<CartItem, 'strength' | 'cost' | 'quantity' | 'notes'>>;

function toNumber(value: unknown, fallback = 0): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** A line's quantity kept within 1-MAX_ITEM_QUANTITY (the checkout refuses more pieces of one line). */
export function clampQuantity(quantity: number): number {
  return Math.min(MAX_ITEM_QUANTITY, Math.max(1, quantity));
}

function toText(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : String(value);
}

/**
 * One stored line made safe: quantity below 1 becomes 1 (above MAX_ITEM_QUANTITY, 100, becomes 100), strength
 * outside 1-5 becomes 3, cost a number.
 * Returns null for something that is not a cart line at all.
 */
export function normalizeCartItem(raw: unknown): CartItem | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const strength = toNumber(r.strength, DEFAULT_STRENGTH);
  const quantity = Math.floor(toNumber(r.quantity, 1));
  const dims = (r.dimensions && typeof r.dimensions === 'object' ? r.dimensions : {}) as Record<
    string,
    unknown
  >;
  return {
    id: toText(r.id) || newItemId(),
    filePath: toText(r.filePath),
    fileName: toText(r.fileName),
    color: toText(r.color),
    strength: isStrength(strength) ? strength : DEFAULT_STRENGTH,
    cost: toNumber(r.cost, 0),
    quantity: clampQuantity(quantity),
    previewImage: toText(r.previewImage),
    volumeCm3: toNumber(r.volumeCm3, 0),
    dimensions: { x: toNumber(dims.x), y: toNumber(dims.y), z: toNumber(dims.z) },
    notes: toText(r.notes),
  };
}

export function normalizeCart(raw: unknown): CartItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.map(normalizeCartItem).filter((i): i is CartItem => i !== null);
}

export function newItemId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `item-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const sameLine = (a: Pick<CartItem, 'filePath' | 'color' | 'strength'>, b: typeof a) =>
  a.filePath === b.filePath && a.color === b.color && a.strength === b.strength;

/** Adds a line, or adds its quantity to the identical line (same file, color, strength) and updates its cost. */
export function addToCart(items: CartItem[], add: NewCartItem): CartItem[] {
  const incoming = normalizeCartItem({ ...add, id: newItemId() });
  if (!incoming) return items;
  const existing = items.find((i) => sameLine(i, incoming));
  if (!existing) return [...items, incoming];
  return items.map((i) =>
    i === existing
      ? { ...i, quantity: clampQuantity(i.quantity + incoming.quantity), cost: incoming.cost }
      : i,
  );
}

/** Sets a line's quantity (a non-negative integer, at most MAX_ITEM_QUANTITY); 0 removes the line. */
export function setQuantity(items: CartItem[], id: string, quantity: number): CartItem[] {
  if (!Number.isFinite(quantity) || quantity < 0) return items;
  const q = Math.floor(quantity);
  if (q === 0) return items.filter((i) => i.id !== id);
  return items.map((i) => (i.id === id ? { ...i, quantity: clampQuantity(q) } : i));
}

/**
 * Writes the server's unit prices (by line id) into the lines' `cost`; the same array when nothing changes,
 * so that a store can skip saving.
 */
export function withUnitPrices(items: CartItem[], prices: ReadonlyMap<string, number>): CartItem[] {
  let changed = false;
  const next = items.map((i) => {
    const price = prices.get(i.id);
    if (price === undefined || price === i.cost) return i;
    changed = true;
    return { ...i, cost: price };
  });
  return changed ? next : items;
}

/** What a cart line shows of its model: a rescaled model replaces the old one in every line. */
export type LineModel = Pick<CartItem, 'previewImage' | 'volumeCm3' | 'dimensions'> & { id: string };

/**
 * Points every line of model `fromId` at `model` (a rescale makes a new model): its id, preview, volume and
 * size. A line that then matches another (same model, color, strength) merges into it, as adding would.
 */
export function replaceModel(items: CartItem[], fromId: string, model: LineModel): CartItem[] {
  if (!items.some((i) => i.filePath === fromId)) return items;
  const moved = items.map((i) =>
    i.filePath === fromId
      ? {
          ...i,
          filePath: model.id,
          previewImage: model.previewImage,
          volumeCm3: model.volumeCm3,
          dimensions: { ...model.dimensions },
        }
      : i,
  );
  return mergeCarts([], moved);
}

/**
 * The cart after logging in on a browser that had its own: the account's lines, then this browser's, each
 * merged as adding would (the same model, color and strength add their quantities, up to the limit).
 */
export function mergeCarts(account: CartItem[], browser: CartItem[]): CartItem[] {
  const next = [...account];
  for (const line of browser) {
    const same = next.findIndex((i) => sameLine(i, line));
    if (same === -1) next.push(line);
    else next[same] = { ...next[same]!, quantity: clampQuantity(next[same]!.quantity + line.quantity) };
  }
  return next;
}

export function removeFromCart(items: CartItem[], id: string): CartItem[] {
  return items.filter((i) => i.id !== id);
}

export function cartCount(items: CartItem[]): number {
  return items.reduce((n, i) => n + i.quantity, 0);
}
