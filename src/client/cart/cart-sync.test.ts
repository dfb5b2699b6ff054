// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartItem } from '../../shared/cart.ts';
import { addCartItem, clearCart, getCart, reloadCart, setCartQuantity } from './cart-store.ts';
import { DIRTY_KEY, endCartSync, OWNER_KEY, startCartSync } from './cart-sync.ts';

// The cart following the account: merged at login, the account's copy on a page load, every change saved.

const line = (filePath: string, quantity: number, color = '#007bff'): CartItem => ({
  id: `${filePath}-${color}`,
  filePath,
  fileName: `${filePath}.stl`,
  color,
  strength: 3,
  cost: 12,
  quantity,
  previewImage: `/api/models/${filePath}/preview.png`,
  volumeCm3: 5,
  dimensions: { x: 10, y: 10, z: 10 },
  notes: '',
});

/** The account's cart on the fake server, and every PUT it received. */
let serverCart: CartItem[];
let saves: CartItem[][];

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (String(input) !== '/api/cart') return Promise.resolve(Response.json({}, { status: 404 }));
  if (init?.method === 'PUT') {
    serverCart = (JSON.parse(String(init.body)) as { items: CartItem[] }).items;
    saves.push(serverCart);
  }
  return Promise.resolve(Response.json({ items: serverCart }));
}

const quantities = (items: CartItem[]) => items.map((i) => `${i.filePath}:${i.color}:${i.quantity}`);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  localStorage.clear();
  reloadCart();
  serverCart = [];
  saves = [];
});
afterEach(() => {
  endCartSync();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the cart following the account', () => {
  it('at login, merges this browser’s cart into the account’s, as adding would, and saves it', async () => {
    serverCart = [line('m_phone', 2), line('m_both', 1)];
    addCartItem(line('m_both', 3));
    addCartItem(line('m_desk', 1));
    await startCartSync('ada');
    expect(quantities(getCart())).toEqual(['m_phone:#007bff:2', 'm_both:#007bff:4', 'm_desk:#007bff:1']);
    expect(quantities(serverCart)).toEqual(quantities(getCart()));
    expect(localStorage.getItem(OWNER_KEY)).toBe('ada');
  });

  it('at login, an account cart whose answer breaks off is not taken as empty: nothing merged, nothing saved', async () => {
    // As when the page navigates away while the answer arrives (CI caught the phone's line lost this way).
    serverCart = [line('m_phone', 2)];
    addCartItem(line('m_desk', 1));
    const broken = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"items":[{"id":'));
          controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
    vi.mocked(fetch).mockResolvedValueOnce(broken);
    await startCartSync('ada');
    expect(saves).toEqual([]);
    expect(quantities(serverCart)).toEqual(['m_phone:#007bff:2']);
    expect(quantities(getCart())).toEqual(['m_desk:#007bff:1']);
    expect(localStorage.getItem(OWNER_KEY)).toBeNull(); // the next page load merges, as a login would
    // An answer that is not a cart at all is no cart either.
    endCartSync();
    vi.mocked(fetch).mockResolvedValueOnce(Response.json({ unexpected: true }));
    await startCartSync('ada');
    expect(saves).toEqual([]);
    expect(localStorage.getItem(OWNER_KEY)).toBeNull();
  });

  it('on a page load while logged in, takes the account’s cart (changed on another device) as it is', async () => {
    serverCart = [line('m_a', 1)];
    await startCartSync('ada');
    endCartSync();
    localStorage.setItem(OWNER_KEY, 'ada'); // as a reload leaves it
    serverCart = [line('m_a', 5), line('m_b', 1)]; // the phone changed it meanwhile
    saves = [];
    await startCartSync('ada');
    expect(quantities(getCart())).toEqual(['m_a:#007bff:5', 'm_b:#007bff:1']);
    expect(saves).toEqual([]); // nothing doubled, nothing written back
  });

  it('saves each change shortly after, and a change not saved before a reload wins over the server', async () => {
    await startCartSync('ada');
    addCartItem(line('m_new', 2));
    expect(localStorage.getItem(DIRTY_KEY)).toBe('1');
    await vi.advanceTimersByTimeAsync(500);
    expect(quantities(serverCart)).toEqual(['m_new:#007bff:2']);
    expect(localStorage.getItem(DIRTY_KEY)).toBeNull();

    // A change whose save never left (the page closed at once): the next load sends it.
    setCartQuantity(getCart()[0]!.id, 7);
    endCartSync();
    localStorage.setItem(OWNER_KEY, 'ada');
    localStorage.setItem(DIRTY_KEY, '1');
    await startCartSync('ada');
    expect(quantities(serverCart)).toEqual(['m_new:#007bff:7']);
  });

  it('keeps a change made on a page before the sync starts (the payment success page emptying the cart)', async () => {
    serverCart = [line('m_paid', 2)];
    await startCartSync('ada');
    endCartSync();
    localStorage.setItem(OWNER_KEY, 'ada'); // a reload onto /payment-success
    clearCart(); // the page empties the cart while the session is being checked
    saves = [];
    await startCartSync('ada');
    expect(getCart()).toEqual([]);
    expect(serverCart).toEqual([]);
    expect(saves).toHaveLength(1);
  });

  it('does not empty the account’s cart when a logout clears the browser’s', async () => {
    serverCart = [line('m_keep', 1)];
    await startCartSync('ada');
    endCartSync();
    clearCart();
    await vi.advanceTimersByTimeAsync(1000);
    expect(quantities(serverCart)).toEqual(['m_keep:#007bff:1']);
    expect(localStorage.getItem(OWNER_KEY)).toBeNull();
  });

  it('keeps a visitor’s cart when the server has no session (401): nothing merged, nothing saved', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(Response.json({ error: 'Please log in first.' }, { status: 401 }))),
    );
    addCartItem(line('m_visitor', 1));
    await startCartSync('ada');
    expect(quantities(getCart())).toEqual(['m_visitor:#007bff:1']);
    expect(localStorage.getItem(OWNER_KEY)).toBeNull();
  });
});
