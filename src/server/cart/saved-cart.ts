import { eq, sql } from 'drizzle-orm';
import {
  type CartItem,
  cartItem,
  MAX_CART_LINES,
  type PaidLine,
  withoutPaidLines,
} from '../../shared/cart.ts';
import type { Db } from '../db/client.ts';
import { savedCarts } from '../db/schema.ts';

// A logged-in customer's cart on the server, so that it follows the account to another device. The
// browser merges its own cart into it at login (the client's cart-sync.ts) and saves every change here.

/** The stored lines; a line that no longer reads as a cart line (an older format) is left out. */
export async function loadSavedCart(db: Db, userId: number): Promise<CartItem[]> {
  const [row] = await db
    .select({ items: savedCarts.items })
    .from(savedCarts)
    .where(eq(savedCarts.userId, userId))
    .limit(1);
  const items = Array.isArray(row?.items) ? row.items : [];
  return items.flatMap((i) => {
    const parsed = cartItem.safeParse(i);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Replaces the stored cart with `items` (already checked against the shared schema). */
export async function saveCart(db: Db, userId: number, items: CartItem[], now: Date): Promise<void> {
  const lines = items.slice(0, MAX_CART_LINES);
  await db
    .insert(savedCarts)
    .values({ userId, items: lines, updatedAt: now })
    .onConflictDoUpdate({
      target: savedCarts.userId,
      set: { items: sql`excluded.items`, updatedAt: now },
    });
}

/** Takes an order's paid lines out of the account's saved cart (in the payment's transaction). */
export async function removePaidLines(db: Db, userId: number, paid: readonly PaidLine[], now: Date) {
  const items = await loadSavedCart(db, userId);
  const left = withoutPaidLines(items, paid);
  if (left !== items) await saveCart(db, userId, left, now);
}
