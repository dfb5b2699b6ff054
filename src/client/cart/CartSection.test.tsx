// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartQuotePayload, CartQuoteRequest } from '../../shared/checkout.ts';
import type { ShippingOffer, ShipTo, TaxMode } from '../../shared/shipping.ts';
import { SessionProvider, useSession } from '../session/SessionProvider.tsx';
import CartSection from './CartSection.tsx';
import { addCartItem, CART_KEY, clearCart, getCart } from './cart-store.ts';
import { endCartSync, OWNER_KEY } from './cart-sync.ts';
import { SHIP_TO_KEY } from './ship-to.ts';

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
let checkouts: unknown[];
/** The country the server quotes for when the request names none (the account's last order's). */
let defaultShipTo: ShipTo;
let taxMode: TaxMode;

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
    checkouts.push(JSON.parse(String(init?.body)));
    return Promise.resolve(Response.json(checkoutAnswer.body, { status: checkoutAnswer.status }));
  }
  return Promise.resolve(Response.json({ error: 'not here' }, { status: 404 }));
}

/** A method as the server offers it: ships Tue, Dec 1 2026; free from its threshold. */
function offer(
  id: string,
  name: string,
  listPriceCents: number,
  freeFromCents: number | null,
  arrives: [string, string],
  subtotalCents: number,
): ShippingOffer {
  const free = freeFromCents !== null && subtotalCents >= freeFromCents;
  return {
    id,
    name,
    priceCents: free ? 0 : listPriceCents,
    listPriceCents,
    freeFromCents,
    transitDays: id.endsWith('standard') ? { min: 3, max: 5 } : { min: 1, max: 2 },
    shipBy: '2026-12-01',
    arrivesFrom: arrives[0],
    arrivesBy: arrives[1],
  };
}

/**
 * The server's prices: $22.46 a piece, 5% off from 10 pieces; the model `gone` cannot be ordered. Shipping
 * to the US: Standard $6.95 (free from $75), Expedited $19.95; to Canada: Standard $14.95 (free from $150).
 */
function serverPrices(req: CartQuoteRequest): CartQuotePayload {
  let cents = 0;
  const lines = req.items.map((i) => {
    if (i.modelId === 'gone') return { error: '"Item 1" is not available any more.' };
    const discountPercent = i.quantity >= 10 ? 5 : 0;
    const lineCents = Math.round(2246 * i.quantity * (1 - discountPercent / 100));
    cents += lineCents;
    return { unitPrice: 22.46, lineTotal: lineCents / 100, discountPercent };
  });
  const shipTo = req.shipTo ?? defaultShipTo;
  const options =
    shipTo === 'US'
      ? [
          offer('us-standard', 'US Standard', 695, 7500, ['2026-12-04', '2026-12-08'], cents),
          offer('us-expedited', 'US Expedited', 1995, null, ['2026-12-02', '2026-12-03'], cents),
        ]
      : [
          offer('ca-standard', 'Canada Standard', 1495, 15000, ['2026-12-08', '2026-12-11'], cents),
          offer('ca-expedited', 'Canada Expedited', 3495, null, ['2026-12-03', '2026-12-07'], cents),
        ];
  const orderable = lines.some((l) => !('error' in l));
  return {
    currency: 'usd',
    lines,
    total: cents / 100,
    shipping: orderable ? { shipTo, options } : null,
    tax: taxMode,
  };
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
const shipToSelect = () =>
  [...container.querySelectorAll('label')].find((l) => l.textContent === 'Ship to')!
    .control as HTMLSelectElement;
const methods = () =>
  [...container.querySelectorAll('[data-testid="ship-method"]')].map((li) =>
    [...li.children].map((c) => c.textContent),
  );
async function chooseShipTo(value: ShipTo) {
  await act(async () => {
    shipToSelect().value = value;
    shipToSelect().dispatchEvent(new Event('change', { bubbles: true }));
  });
}
const checkoutButton = () =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === 'Proceed to Checkout')!;

beforeEach(() => {
  quote = serverPrices;
  checkoutAnswer = { status: 500, body: { error: 'not in this test' } };
  checkouts = [];
  defaultShipTo = 'US';
  taxMode = 'automatic';
  asked = [];
  localStorage.removeItem(SHIP_TO_KEY);
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

    // Removing a line leaves lines the server priced already: their sum, while it asks again; the shipping
    // (free from $75 no more) and so the total are on their way.
    const remove = [...lines()[0]!.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!;
    await act(async () => remove.click());
    expect(summary().getAttribute('data-state')).toBe('pending');
    expect(byTestId(container, 'cart-items')).toBe('$44.92');
    expect(byTestId(container, 'cart-shipping')).toBe('updating…');
    expect(byTestId(container, 'cart-total')).toBe('updating…');
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote without it');
    expect(byTestId(container, 'cart-shipping')).toBe('$6.95');
    expect(byTestId(container, 'cart-total')).toBe('$51.87');
  });

  it('shows why a line cannot be ordered and blocks the checkout until it is removed', async () => {
    addCartItem(line('gone', 3, 1, 12));
    addCartItem(line('m_cube', 3, 1, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    const refused = lines()[0]!;
    expect(refused.querySelector('[role=alert]')?.textContent).toBe('"gone.stl" is not available any more.');
    expect(byTestId(refused, 'line-total')).toBe('Unavailable');
    expect(byTestId(container, 'cart-items')).toBe('$22.46');
    expect(byTestId(container, 'cart-total')).toBe('$29.41');
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

  it("shows the country's methods with their prices and dates, what it takes to ship free, and the totals with shipping", async () => {
    taxMode = 'test';
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    expect(byTestId(container, 'ship-methods-unknown')).toBe('Shipping: updating…');
    expect(byTestId(container, 'cart-shipping')).toBe('updating…');
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    expect(shipToSelect().value).toBe('US');
    expect(methods()).toEqual([
      [
        'US Standard',
        '$6.95',
        '3-5 business days in transit · arrives Dec 4-8',
        'Free US Standard from $75.00 — add $30.08 more',
      ],
      ['US Expedited', '$19.95', '1-2 business days in transit · arrives Dec 2-3'],
    ]);
    expect(byTestId(container, 'delivery')).toBe(
      'Order today, ships by Tue, Dec 1; arrives Dec 4-8 with US Standard',
    );
    expect(summary().textContent).toContain('You choose the shipping method on the payment page.');
    expect(byTestId(container, 'cart-items')).toBe('$44.92');
    expect(byTestId(container, 'cart-shipping')).toBe('$6.95');
    expect(byTestId(container, 'cart-tax')).toBe('$0.00');
    expect(byTestId(container, 'cart-total')).toBe('$51.87');
    expect(summary().querySelector('[role=status]')?.textContent).toBe(
      'Test mode: no tax is charged. In live mode taxes are calculated by the payment provider at checkout. We ship to the US and Canada.',
    );

    // From $75 of items US Standard is free: its list price struck through, the total without it.
    const plus = container.querySelector<HTMLButtonElement>('[aria-label="Increase quantity"]')!;
    await act(async () => plus.click());
    await act(async () => plus.click());
    await until(
      () =>
        summary().getAttribute('data-state') === 'quoted' && byTestId(container, 'cart-items') === '$89.84',
      'the quote for 4',
    );
    expect(methods()[0]).toEqual([
      'US Standard',
      'Free instead of $6.95',
      '3-5 business days in transit · arrives Dec 4-8',
    ]);
    expect(summary().querySelector('.ship-method s')?.textContent).toBe('instead of $6.95');
    expect(byTestId(container, 'cart-shipping')).toBe('Free');
    expect(byTestId(container, 'cart-total')).toBe('$89.84');
  });

  it('says taxes are calculated at checkout with automatic tax, and that none is added without it', async () => {
    addCartItem(line('m_cube', 3, 4, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    expect(byTestId(container, 'cart-tax')).toBe('at checkout');
    expect(summary().querySelector('[role=status]')?.textContent).toBe(
      'Sales tax, GST or HST is calculated at checkout where it applies. We ship to the US and Canada.',
    );
    act(() => root.unmount());
    taxMode = 'none';
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    expect(byTestId(container, 'cart-tax')).toBe('$0.00');
    expect(summary().querySelector('[role=status]')?.textContent).toBe(
      'No tax is added at checkout. We ship to the US and Canada.',
    );
  });

  it("starts at the server's country, asks again for the one chosen and remembers it", async () => {
    defaultShipTo = 'CA';
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    // Nothing chosen yet: the request names no country, and the select shows the one the server quoted.
    expect(asked[0]?.shipTo).toBeUndefined();
    expect(shipToSelect().value).toBe('CA');
    expect([...shipToSelect().options].map((o) => o.textContent)).toEqual(['United States', 'Canada']);
    expect(methods().map((m) => m[0])).toEqual(['Canada Standard', 'Canada Expedited']);
    expect(byTestId(container, 'cart-total')).toBe('$59.87');

    await chooseShipTo('US');
    expect(summary().getAttribute('data-state')).toBe('pending');
    expect(byTestId(container, 'cart-total')).toBe('updating…');
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote for the US');
    expect(asked.at(-1)?.shipTo).toBe('US');
    expect(shipToSelect().value).toBe('US');
    expect(methods().map((m) => m[0])).toEqual(['US Standard', 'US Expedited']);
    expect(byTestId(container, 'cart-total')).toBe('$51.87');
    expect(localStorage.getItem(SHIP_TO_KEY)).toBe('US');

    // Remembered: the next visit asks for the US from its first request, whatever the server's default.
    act(() => root.unmount());
    asked = [];
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote on the next visit');
    expect(asked.map((a) => a.shipTo)).toEqual(['US']);
    expect(shipToSelect().value).toBe('US');
  });

  it('sends the ship-to country with the checkout: the quoted one, or the one chosen', async () => {
    vi.stubGlobal('alert', vi.fn());
    defaultShipTo = 'CA';
    addCartItem(line('m_cube', 3, 2, 12));
    await mount();
    await until(() => summary().getAttribute('data-state') === 'quoted', 'the quote');
    await act(async () => checkoutButton().click());
    await until(() => checkouts.length === 1, 'the checkout');
    expect(checkouts[0]).toEqual({ cartItems: getCart(), shipTo: 'CA' });

    await until(() => !checkoutButton().disabled, 'the refused checkout');
    await chooseShipTo('US');
    await act(async () => checkoutButton().click());
    await until(() => checkouts.length === 2, 'the second checkout');
    expect(checkouts[1]).toEqual({ cartItems: getCart(), shipTo: 'US' });
  });
});
