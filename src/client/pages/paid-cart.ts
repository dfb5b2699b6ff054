import type { PaidLine } from '../../shared/cart.ts';
import { getJson } from '../api.ts';
import { getCart, removePaidLines } from '../cart/cart-store.ts';

// Once the success page knows an order is paid, exactly that order's lines leave this browser's cart, once.
// The server has already taken them out of the account's saved cart (in the payment's transaction), and the
// cart sync may have put that cart in place on this page already: then there is nothing left to take (taking
// again would remove pieces of the same print added after the checkout).

/** Orders whose lines this browser's cart gave up already (newest last). */
export const SETTLED_KEY = 'printCartPaidOrders';
const KEEP = 50;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function settledOrders(): number[] {
  try {
    const list: unknown = JSON.parse(storage()?.getItem(SETTLED_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

function remember(orderId: number) {
  try {
    storage()?.setItem(SETTLED_KEY, JSON.stringify([...settledOrders(), orderId].slice(-KEEP)));
  } catch {
    // Forbidden storage: the account's cart (pruned by the server) still says what is left.
  }
}

type Line = { filePath: string; color: string; strength: number; quantity: number };
const linesKey = (lines: Line[]) =>
  JSON.stringify(lines.map((l) => [l.filePath, l.color, l.strength, l.quantity]).sort());

/** The account's saved cart as the server has it now (after the payment), or null when unknown. */
async function accountLines(): Promise<Line[] | null> {
  try {
    const res = await getJson('/api/cart');
    if (!res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      return null;
    }
    const items = ((await res.json()) as { items?: unknown } | null)?.items;
    return Array.isArray(items) ? (items as Line[]) : null;
  } catch {
    return null;
  }
}

/** Takes a paid order's lines out of the cart, unless this browser did already or its cart is the account's. */
export async function settlePaidOrder(orderId: number, paid: readonly PaidLine[]): Promise<void> {
  if (settledOrders().includes(orderId)) return;
  remember(orderId);
  const account = await accountLines();
  if (account && linesKey(account) === linesKey(getCart())) return;
  removePaidLines(paid);
}
