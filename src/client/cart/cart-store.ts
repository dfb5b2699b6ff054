import { useSyncExternalStore } from 'react';
import { type PaidLine, withoutPaidLines } from '../../shared/cart.ts';
import {
  addToCart,
  type CartItem,
  type LineModel,
  type NewCartItem,
  normalizeCart,
  removeFromCart,
  replaceModel,
  setQuantity,
  withUnitPrices,
} from './cart-item.ts';

// The cart lives in local storage (key `printCart`), loaded once, saved on every change, shared by
// every component (and every tab, through the storage event).

export const CART_KEY = 'printCart';

let items: CartItem[] = load();
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function load(): CartItem[] {
  try {
    const raw = storage()?.getItem(CART_KEY);
    return raw ? normalizeCart(JSON.parse(raw)) : [];
  } catch {
    return [];
  }
}

function commit(next: CartItem[]) {
  items = next;
  try {
    storage()?.setItem(CART_KEY, JSON.stringify(items));
  } catch (err) {
    console.warn('Could not save the cart:', err);
  }
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== CART_KEY) return;
    items = load();
    for (const l of listeners) l();
  });
}

export function getCart(): CartItem[] {
  return items;
}

export function subscribeCart(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCart(): CartItem[] {
  return useSyncExternalStore(subscribeCart, getCart, getCart);
}

export const addCartItem = (item: NewCartItem) => commit(addToCart(items, item));
export const setCartQuantity = (id: string, quantity: number) => commit(setQuantity(items, id, quantity));
export const removeCartItem = (id: string) => commit(removeFromCart(items, id));
export const updateCartNotes = (id: string, notes: string) =>
  commit(items.map((i) => (i.id === id ? { ...i, notes } : i)));
export const clearCart = () => commit([]);
/**
 * Takes a paid order's lines out of the cart (src/shared/cart.ts withoutPaidLines): each paid line's pieces
 * leave the matching line; every other line stays as it is. Saves only on a change.
 */
export const removePaidLines = (paid: readonly PaidLine[]) => {
  const next = withoutPaidLines(items, paid);
  if (next !== items) commit(next);
};
/** Stores the server's unit prices (line id -> dollars) as the lines' `cost`; saves only on a change. */
export const setCartUnitPrices = (prices: ReadonlyMap<string, number>) => {
  const next = withUnitPrices(items, prices);
  if (next !== items) commit(next);
};
export const replaceCartModel = (fromId: string, model: LineModel) => {
  const next = replaceModel(items, fromId, model);
  if (next !== items) commit(next);
};
/** Puts `next` in place of the whole cart (the account's cart, read from the server). */
export const replaceCart = (next: CartItem[]) => commit(normalizeCart(next));
/** Re-reads local storage (tests, and after another tab changed it). */
export const reloadCart = () => commit(load());
