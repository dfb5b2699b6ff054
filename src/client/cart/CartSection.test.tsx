// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartQuotePayload, CartQuoteRequest } from '../../shared/checkout.ts';
import { SessionProvider, useSession } from '../session/SessionProvider.tsx';
import CartSection from './CartSection.tsx';
import { addCartItem, CART_KEY, clearCart, getCart } from './cart-store.ts';
import { endCartSync, OWNER_KEY } from './cart-sync.ts';

// The cart in a DOM: it shows what the server's quote says it will charge, line by line and in total.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const line = (filePath: string, strength: number, quantity: number, cost: number) => ({
  filePath,
  fileName: `${filePath}.stl`,
  color: '#007bff',
  strength,
  cost,
  quantity,
  previewImage: `/api/models/${filePath}/preview.png`,
  volumeCm3: 72,
  dimensions: { x: 60, y: 40, z: 30 },
});

let quote: (req: CartQuoteRequest) => CartQuotePayload;
let asked: CartQuoteRequest[];
let checkoutAnswer: { status: number; body: unknown };

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  if (url === '/api/cart/quote') {
    const body = JSON.parse(String(init?.body)) as CartQuoteRequest;
    asked.push(body);
    return Promise.resolve(Response.json(quote(body)));
  }
  if (url === '/api/check_session.php')
    return Promise.resolve(Response.json({ loggedIn: true, username: 'ada' }));
  if (url === '/api/get_user_role.php') return Promise.resolve(Response.json({ isAdmin: false }));
  if (url === '/api/create-checkout-session.php') {
    return Promise.resolve(Response.json(checkoutAnswer.body, { status: checkoutAnswer.status }));
  }
  return Promise.resolve(Response.json({ error: 'not here' }, { status: 404 }));
}

/** The server's prices: $22.46 a piece, 5% off from 10 pieces; the model `gone` cannot be ordered. */
function serverPrices(req: CartQuoteRequest): CartQuotePayload {
  let total = 0;
  const lines = req.items.map((i) => {
    if (i.modelId === 'gone') return { error: '"Item 1" is not available any more.' };
    const discountPercent = i.quantity >= 10 ? 5 : 0;
    const lineTotal = Math.round(2246 * i.quantity * (1 - discountPercent / 100)) / 100;
    total += lineTotal;
    return { unitPrice: 22.46, lineTotal, discountPercent };
  });
  return { currency: 'usd', lines, total: Math.round(total * 100) / 100 };
}

let container: HTMLDivElement;
let root: Root;

/** The login page as a probe: where the cart sent the customer, with what state, and the session then. */
function LoginProbe() {
  const location = useLocation();
  const { username } = useSession();
  return (
    <p data-testid="login">{JSON.stringify({ path: location.pathname, state: location.state, username })}</p>
  );
}

async function mount() {
  const router = createMemoryRouter([
    { path: '/', element: <CartSection /> },
    { path: '/login', element: <LoginProbe /> },
  ]);
  root = createRoot(container);
  await act(async () =>
    root.render(
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>,
    ),
  );
}

async function until(check: () => boolean, what: string) {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}:\n${container.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

const lines = () => [...container.querySelectorAll('li.cart-item')];
const byTestId = (el: Element | undefined, id: string) =>
  el?.querySelector(`[data-testid="${id}"]`)?.textContent;
const summary = () => container.querySelector('.cart-summary')!;
const checkoutButton = () =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === 'Proceed to Checkout')!;

beforeEach(() => {
  quote = serverPrices;
  checkoutAnswer = { status: 500, body: { error: 'not in this test' } };
  asked = [];
  clearCart();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  endCartSync();
  vi.unstubAllGlobals();
  clearCart();
});

describe('CartSection', () => {
  it('says the prices are updating until the server answers, then shows its prices, discount and total', async () => {
    addCartItem(line('m_block', 5, 10, 23.33));
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    // Before the answer: no amount worked out here (cost x quantity would miss the quantity discount).
    expect(byTestId(lines()[0], 'line-total')).toBe('updating…');
    expect(byTestId(lines()[1], 'line-total')).toBe('updating…');
    expect(byTestId(lines()[0], 'unit-price')).toBe('$23.33');
    expect(byTestId(container, 'cart-total')).toBe('updating…');
    expect(summary().getAttribute('data-state')).toBe('pending');

    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    expect(asked).toEqual([
      {
        items: [
          { modelId: 'm_block', color: '#007bff', strength: 5, quantity: 10, fileName: 'm_block.stl' },
          { modelId: 'm_cube', color: '#007bff', strength: 3, quantity: 2, fileName: 'm_cube.stl' },
        ],
      },
    ]);
    expect(byTestId(lines()[0], 'unit-price')).toBe('$22.46');
    expect(byTestId(lines()[0], 'line-total')).toBe('$213.37');
    expect(byTestId(lines()[0], 'discount')).toBe('Includes a 5% quantity discount.');
    expect(byTestId(lines()[1], 'line-total')).toBe('$44.92');
    expect(byTestId(lines()[1], 'discount')).toBeUndefined();
    expect(byTestId(container, 'cart-total')).toBe('$258.29');
    // The stored lines now carry the server's unit price.
    expect(getCart().map((i) => i.cost)).toEqual([22.46, 22.46]);
    expect(JSON.parse(localStorage.getItem(CART_KEY)!)[0].cost).toBe(22.46);
  });

  it('asks again after a quantity change, and + stops at 100', async () => {
    addCartItem(line('m_block', 5, 99, 22.46));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    const plus = container.querySelector<HTMLButtonElement>('[aria-label="Increase quantity"]')!;
    await act(async () => plus.click());
    expect(container.querySelector<HTMLInputElement>('input[aria-label="Quantity"]')!.value).toBe('100');
    expect(plus.disabled).toBe(true);
    await until(
      () => asked.length === 2 && summary().getAttribute('data-state') === 'quoted',
      'the new quote',
    );
    expect(asked[1]?.items[0]?.quantity).toBe(100);
    expect(byTestId(lines()[0], 'line-total')).toBe('$2,133.70');
  });

  it("a line whose quantity changed says it is updating while the others keep the server's price", async () => {
    addCartItem(line('m_block', 5, 9, 22.46));
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    expect(byTestId(container, 'cart-total')).toBe('$247.06');
    const plus = lines()[0]!.querySelector<HTMLButtonElement>('[aria-label="Increase quantity"]')!;
    await act(async () => plus.click());
    expect(summary().getAttribute('data-state')).toBe('pending');
    expect(byTestId(lines()[0], 'line-total')).toBe('updating…');
    expect(byTestId(lines()[1], 'line-total')).toBe('$44.92');
    expect(byTestId(container, 'cart-total')).toBe('updating…');
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the new quote');
    // 10 pieces: 5 % off, which cost x quantity would not have known.
    expect(byTestId(lines()[0], 'line-total')).toBe('$213.37');
    expect(byTestId(container, 'cart-total')).toBe('$258.29');

    // Removing a line leaves lines the server priced already: their sum, while it asks again.
    const remove = [...lines()[0]!.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!;
    await act(async () => remove.click());
    expect(summary().getAttribute('data-state')).toBe('pending');
    expect(byTestId(container, 'cart-total')).toBe('$44.92');
  });

  it('shows why a line cannot be ordered and blocks the checkout until it is removed', async () => {
    addCartItem(line('gone', 3, 1, 12));
    addCartItem(line('m_cube', 3, 1, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    const refused = lines()[0]!;
    expect(refused.querySelector('[role=alert]')?.textContent).toBe('"gone.stl" is not available any more.');
    expect(byTestId(refused, 'line-total')).toBe('Unavailable');
    expect(byTestId(container, 'cart-total')).toBe('$22.46');
    expect(checkoutButton().disabled).toBe(true);

    const remove = [...refused.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!;
    await act(async () => remove.click());
    expect(lines()).toHaveLength(1);
    expect(checkoutButton().disabled).toBe(false);
  });

  it('says a price is unavailable when the quote fails, and still lets the customer check out', async () => {
    vi.mocked(fetch).mockImplementation((input, init) =>
      String(input) === '/api/cart/quote'
        ? Promise.resolve(Response.json({ error: 'Something went wrong.' }, { status: 500 }))
        : fakeFetch(input, init),
    );
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'failed', 'the failed quote');
    expect(byTestId(lines()[0], 'line-total')).toBe('price unavailable');
    expect(byTestId(container, 'cart-total')).toBe('price unavailable');
    expect(container.textContent).toContain('Something went wrong.');
    expect(checkoutButton().disabled).toBe(false);
  });

  it('a checkout refused because the session ended logs the customer out, keeps the cart and goes to log in', async () => {
    checkoutAnswer = { status: 401, body: { error: 'Not logged in.' } };
    const alerts = vi.fn();
    vi.stubGlobal('alert', alerts);
    addCartItem(line('m_cube', 3, 2, 12));
    // This browser's cart mirrors the account's (a failed session check at start-up would clear it).
    localStorage.setItem(OWNER_KEY, 'ada');
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    const before = getCart();
    await act(async () => checkoutButton().click());
    await until(() => !!container.querySelector('[data-testid="login"]'), 'the login page');
    expect(alerts).toHaveBeenCalledWith('Please log in to proceed to checkout.');
    expect(JSON.parse(container.querySelector('[data-testid="login"]')!.textContent!)).toEqual({
      path: '/login',
      state: { from: { pathname: '/', search: '', hash: '#cart-section' } },
      username: null,
    });
    expect(getCart()).toBe(before);
    expect(localStorage.getItem(OWNER_KEY)).toBe('ada');
  });

  it("a 403 'Account not verified' keeps its message", async () => {
    checkoutAnswer = { status: 403, body: { error: 'Account not verified. Please check your email.' } };
    const alerts = vi.fn();
    vi.stubGlobal('alert', alerts);
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    await act(async () => checkoutButton().click());
    await until(() => alerts.mock.calls.length > 0, 'the alert');
    expect(alerts).toHaveBeenCalledWith('Checkout Failed: Account not verified. Please check your email.');
    expect(container.querySelector('[data-testid="login"]')).toBeNull();
    expect(checkoutButton().disabled).toBe(false);
  });
});
