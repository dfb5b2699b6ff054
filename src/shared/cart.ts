import { z } from 'zod';
import { MAX_ITEM_NOTES, MAX_ITEM_QUANTITY, MAX_STRENGTH, MIN_STRENGTH } from './catalog.ts';

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
