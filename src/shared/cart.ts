import { z } from 'zod';
import {
  colorSwatch,
  DEFAULT_SWATCH,
  MAX_ITEM_NOTES,
  MAX_ITEM_QUANTITY,
  MAX_STRENGTH,
  MIN_STRENGTH,
} from './catalog.ts';

// One cart line as the browser keeps it (local storage `printCart`) and as a logged-in customer's cart is
// saved on the server. `cost` is the unit price last shown: display only, the checkout prices every line.

/** The most lines one cart may hold and check out. */
export const MAX_CART_LINES = 50;

export const cartItem = z.object({
  id: z.string().min(1).max(100),
  filePath: z.string().max(64),
  fileName: z.string().max(255),
  color: z.string().max(32),
  strength: z.number().int().min(MIN_STRENGTH).max(MAX_STRENGTH),
  cost: z.number().finite().min(0),
  quantity: z.number().int().min(1).max(MAX_ITEM_QUANTITY),
  /** The model's own preview on this shop (a path, never another site's address), or none. */
  previewImage: z
    .string()
    .max(200)
    .regex(/^(\/api\/models\/[\w-]+\/preview\.png)?$/, 'A cart line’s preview is not one of this shop’s.'),
  volumeCm3: z.number().finite(),
  dimensions: z.object({ x: z.number().finite(), y: z.number().finite(), z: z.number().finite() }),
  notes: z.string().max(MAX_ITEM_NOTES),
});
export type CartItem = z.infer<typeof cartItem>;

export const cartItems = z
  .array(cartItem)
  .max(MAX_CART_LINES, `A cart holds at most ${MAX_CART_LINES} lines.`);

/** A line an order paid for, as the cart names it: the model, color, strength and how many. */
export type PaidLine = { modelId: string | null; color: string; strength: number; quantity: number };

const sameColor = (a: string, b: string) =>
  colorSwatch(a) === colorSwatch(b) && colorSwatch(a) !== DEFAULT_SWATCH;

/**
 * The cart once an order is paid: each paid line's pieces leave the matching cart line (same model, color
 * and strength), which goes when none are left; every other line stays as it is. The same array when
 * nothing matched.
 */
export function withoutPaidLines<T extends Pick<CartItem, 'filePath' | 'color' | 'strength' | 'quantity'>>(
  items: T[],
  paid: readonly PaidLine[],
): T[] {
  let changed = false;
  const left = items.map((item) => ({ item, quantity: item.quantity }));
  for (const p of paid) {
    let owed = p.quantity;
    for (const l of left) {
      if (owed === 0) break;
      if (l.quantity === 0 || l.item.filePath !== p.modelId || l.item.strength !== p.strength) continue;
      if (!sameColor(l.item.color, p.color)) continue;
      const taken = Math.min(owed, l.quantity);
      l.quantity -= taken;
      owed -= taken;
      changed = true;
    }
  }
  if (!changed) return items;
  return left.flatMap((l) =>
    l.quantity === 0 ? [] : [l.quantity === l.item.quantity ? l.item : { ...l.item, quantity: l.quantity }],
  );
}
