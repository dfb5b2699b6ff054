import { cartItem } from '../../shared/cart.ts';
import { getJson, putJson } from '../api.ts';
import { type CartItem, mergeCarts } from './cart-item.ts';
import { getCart, replaceCart, subscribeCart } from './cart-store.ts';

// A logged-in customer's cart also lives on the server (GET/PUT /api/cart), so that a cart started on the
// phone is there on the desktop. `printCart` stays the working copy:
// - at login, this browser's cart is merged into the account's (as adding would merge it);
// - on a page load while logged in, the account's cart replaces this browser's copy, unless a change made
//   here has not reached the server yet (then this browser's copy is saved);
// - while logged in, every change is saved shortly after;
// - logged out elsewhere (the session ended), the account's cart is not left on this browser.
// `printCartOwner` says whose account the local cart mirrors, `printCartDirty` that a change is unsaved.

export const OWNER_KEY = 'printCartOwner';
export const DIRTY_KEY = 'printCartDirty';
const SAVE_DELAY_MS = 400;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Forbidden storage: the cart is still saved to the server while this page lives.
  }
}

/** The lines the server will take: anything an older version left that the schema refuses stays local. */
function savable(items: CartItem[]): CartItem[] {
  return items.filter((i) => cartItem.safeParse(i).success);
}

/**
 * The account's cart, or null when it could not be read. An answer whose body broke off (the page
 * navigating away as it arrives, a dropped connection) is null, not an empty cart: merged as empty, this
 * browser's lines would be saved over the account's and the lines added on another device lost.
 */
async function fetchAccountCart(signal: AbortSignal): Promise<CartItem[] | null> {
  const res = await getJson('/api/cart', { signal });
  if (!res.ok) return null;
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    return null;
  }
  const items = (data as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return null;
  return items.flatMap((i) => {
    const parsed = cartItem.safeParse(i);
    return parsed.success ? [parsed.data] : [];
  });
}

type Sync = { username: string; controller: AbortController; unsubscribe: () => void; timer?: number };
let current: Sync | null = null;
/** True while the sync itself puts the account's cart in place (not a change made here). */
let applying = false;

// Any change to a cart that mirrors an account is unsaved until the server has it, also one made before the
// sync (re)started on this page, e.g. the payment success page emptying the cart while the session is checked.
subscribeCart(() => {
  if (!applying && read(OWNER_KEY) !== null) write(DIRTY_KEY, '1');
});

async function save(sync: Sync, keepalive = false): Promise<void> {
  window.clearTimeout(sync.timer);
  sync.timer = undefined;
  try {
    const res = await putJson('/api/cart', { items: savable(getCart()) }, { keepalive });
    // Read to the end: Chromium holds an unread answer open, and the page never looks idle.
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok && current === sync) write(DIRTY_KEY, null);
    else if (!res.ok) console.warn(`Could not save your cart to your account (${res.status}).`);
  } catch (err) {
    console.warn('Could not save your cart to your account:', err);
  }
}

function flush() {
  if (current?.timer !== undefined) void save(current, true);
}

/** Starts keeping `username`'s cart in step with the server (after the session check or a login). */
export async function startCartSync(username: string): Promise<void> {
  if (current?.username === username) return;
  stopCartSync();
  const sync: Sync = { username, controller: new AbortController(), unsubscribe: () => {} };
  current = sync;
  let account: CartItem[] | null;
  try {
    account = await fetchAccountCart(sync.controller.signal);
  } catch {
    account = null;
  }
  if (current !== sync || account === null) return;
  const mirrorsAccount = read(OWNER_KEY) === username;
  const unsaved = mirrorsAccount && read(DIRTY_KEY) !== null;
  const next = !mirrorsAccount ? mergeCarts(account, getCart()) : unsaved ? getCart() : account;
  write(OWNER_KEY, username);
  applying = true;
  try {
    replaceCart(next);
  } finally {
    applying = false;
  }
  if (!mirrorsAccount || unsaved) await save(sync);
  if (current !== sync) return;
  sync.unsubscribe = subscribeCart(() => {
    window.clearTimeout(sync.timer);
    sync.timer = window.setTimeout(() => void save(sync), SAVE_DELAY_MS);
  });
  window.addEventListener('pagehide', flush);
}

/** Stops saving (before a logout clears the cart, which must not empty the account's cart). */
function stopCartSync(): void {
  if (!current) return;
  current.controller.abort();
  current.unsubscribe();
  window.clearTimeout(current.timer);
  window.removeEventListener('pagehide', flush);
  current = null;
}

/**
 * Stops syncing and forgets whose cart this was (a logout, or a session that ended elsewhere). Answers
 * whether the local cart was an account's: that cart is kept on the server and must not stay here.
 */
export function endCartSync(): boolean {
  stopCartSync();
  const wasAccounts = read(OWNER_KEY) !== null;
  write(OWNER_KEY, null);
  write(DIRTY_KEY, null);
  return wasAccounts;
}
