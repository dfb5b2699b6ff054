// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartItem } from '../../shared/cart.ts';
import { addCartItem, clearCart, getCart } from '../cart/cart-store.ts';
import { endCartSync, OWNER_KEY } from '../cart/cart-sync.ts';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { POLL_LIMIT, POLL_MS } from './checkout-status.ts';
import { PaymentCancelPage, PaymentSuccessPage, STATUS_MSG } from './PaymentPages.tsx';
import { SETTLED_KEY } from './paid-cart.ts';

// The pages the payment provider sends the customer back to, against a stubbed server: the session check,
// the checkout status, the account's saved cart and the orders.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Answer = { status: number; body: unknown };
const json = (body: unknown, status = 200): Answer => ({ status, body });

let loggedIn: boolean;
/** What GET /api/checkout/status answers, one after the other (the last one repeats). */
let statuses: Answer[];
/** The account's saved cart as the server has it (already without a paid order's lines). */
let accountCart: Answer;
let orders: Answer[];
let cancelAnswer: Answer;
let calls: string[];

const paidOrder = (status: string, over: Record<string, unknown> = {}) =>
  json({
    orderId: 12,
    status,
    testMode: false,
    items: [{ modelId: 'm_cube', color: '#007bff', strength: 3, quantity: 2 }],
    ...over,
  });

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  const method = init?.method ?? 'GET';
  calls.push(`${method} ${url}`);
  let answer: Answer;
  if (url === '/api/check_session.php') answer = json({ loggedIn, username: loggedIn ? 'ada' : null });
  else if (url === '/api/get_user_role.php') answer = json({ isAdmin: false });
  else if (url.startsWith('/api/checkout/status?')) {
    answer = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
  } else if (url === '/api/cart' && method === 'GET') answer = accountCart;
  else if (url === '/api/cart' && method === 'PUT') answer = json(JSON.parse(String(init?.body)));
  else if (url === '/api/get_orders.php') answer = orders.length > 1 ? orders.shift()! : orders[0]!;
  else if (url === '/api/orders/7/cancel' && method === 'POST') answer = cancelAnswer;
  else answer = json({ error: 'not here' }, 404);
  return Promise.resolve(Response.json(answer.body, { status: answer.status, statusText: 'Nope' }));
}

let container: HTMLDivElement;
let root: Root | null;

async function mount(path: string, page: 'success' | 'cancel' = 'success') {
  root = createRoot(container);
  await act(async () =>
    root!.render(
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          {page === 'success' ? <PaymentSuccessPage /> : <PaymentCancelPage />}
        </SessionProvider>
      </MemoryRouter>,
    ),
  );
  await settle();
}

const settle = () => act(() => vi.advanceTimersByTimeAsync(0));
const unmount = () => {
  act(() => root?.unmount());
  root = null;
};

const text = () => container.textContent ?? '';
const heading = () => container.querySelector('h1')?.textContent;
const state = () => container.querySelector('[data-testid="order-state"]')?.textContent ?? '';
const statusCalls = () => calls.filter((c) => c.includes('/api/checkout/status'));
const button = (name: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === name);
const link = (name: string) => [...container.querySelectorAll('a')].find((a) => a.textContent === name);
const lines = () => getCart().map((i) => `${i.filePath}:${i.quantity}`);

const line = (filePath: string, quantity: number) => ({
  filePath,
  fileName: `${filePath}.stl`,
  color: '#007bff',
  strength: 3,
  quantity,
  previewImage: '',
  volumeCm3: 8,
  dimensions: { x: 20, y: 20, z: 20 },
});
const saved = (filePath: string, quantity: number): CartItem => ({
  ...line(filePath, quantity),
  id: `saved-${filePath}`,
  cost: 12,
  notes: '',
});

beforeEach(() => {
  vi.useFakeTimers();
  loggedIn = true;
  statuses = [paidOrder('paid')];
  accountCart = json({ items: [] });
  orders = [json([])];
  cancelAnswer = json({ id: 7, status: 'cancelled' });
  calls = [];
  localStorage.clear();
  clearCart();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  vi.stubGlobal(
    'confirm',
    vi.fn(() => true),
  );
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  unmount();
  container.remove();
  endCartSync();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  clearCart();
  localStorage.clear();
});

describe('/payment-success', () => {
  it("claims a paid order: the specified text, the order's state, and exactly its lines leave the cart", async () => {
    // This browser mirrors the account; the account's saved cart already lost the paid cube (the server).
    localStorage.setItem(OWNER_KEY, 'ada');
    addCartItem(line('m_cube', 2));
    addCartItem(line('m_block', 1));
    accountCart = json({ items: [saved('m_block', 1)] });
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Payment Successful');
    expect(document.title).toBe('Payment Successful · Badger Print Co.');
    expect(text()).toContain(
      "Payment Successful! Your order is being processed. You can view it in 'My Orders' shortly.",
    );
    expect(state()).toBe('Order #12: Paid / Processing');
    expect(text()).not.toContain(STATUS_MSG.testOrder);
    expect(lines()).toEqual(['m_block:1']);
    expect(statusCalls()).toEqual(['GET /api/checkout/status?session_id=cs_sim_abc']);
  });

  it('takes the paid pieces only once: a reload takes nothing more', async () => {
    // The account's cart cannot be read here (the sync leaves this browser's copy alone).
    accountCart = json({ error: 'down' }, 500);
    localStorage.setItem(OWNER_KEY, 'ada');
    addCartItem(line('m_cube', 5));
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(lines()).toEqual(['m_cube:3']);
    expect(JSON.parse(localStorage.getItem(SETTLED_KEY)!)).toEqual([12]);
    unmount();
    endCartSync();
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Payment Successful');
    expect(lines()).toEqual(['m_cube:3']);
  });

  it("takes nothing from a cart that is already the account's after the payment", async () => {
    // 2 cubes paid; a third added after the checkout; the server's cart holds that one, and so does this one.
    localStorage.setItem(OWNER_KEY, 'ada');
    addCartItem(line('m_cube', 1));
    accountCart = json({ items: [saved('m_cube', 1)] });
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Payment Successful');
    expect(lines()).toEqual(['m_cube:1']);
  });

  it('marks a test order', async () => {
    statuses = [paidOrder('paid', { testMode: true })];
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(text()).toContain('Test order: no money was taken.');
  });

  it('counts an order staff moved on already as paid', async () => {
    statuses = [paidOrder('shipped')];
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Payment Successful');
    expect(state()).toBe('Order #12: Shipped');
  });

  it('asks again while the order is pending, and claims the payment only once it is paid', async () => {
    statuses = [paidOrder('pending'), paidOrder('pending'), paidOrder('paid')];
    addCartItem(line('m_cube', 2));
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Checking your payment…');
    expect(document.title).toBe('Checking your payment… · Badger Print Co.');
    expect(state()).toBe(`Order #12: Pending Payment${STATUS_MSG.waiting}`);
    expect(text()).not.toContain('Payment Successful!');
    expect(lines()).toEqual(['m_cube:2']);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2));
    expect(heading()).toBe('Payment Successful');
    expect(state()).toBe('Order #12: Paid / Processing');
    expect(lines()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 5));
    expect(statusCalls()).toHaveLength(3);
  });

  it('gives up after a while: no success, the cart as it was, and the payment still being confirmed', async () => {
    statuses = [paidOrder('pending')];
    addCartItem(line('m_cube', 2));
    const before = getCart();
    await mount('/payment-success?session_id=cs_sim_abc');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * (POLL_LIMIT + 3)));
    expect(statusCalls()).toHaveLength(POLL_LIMIT);
    expect(heading()).toBe('No completed payment');
    expect(document.title).toBe('No completed payment · Badger Print Co.');
    expect(text()).toContain(STATUS_MSG.notFound);
    expect(state()).toContain('Order #12: Pending Payment');
    expect(state()).toContain(STATUS_MSG.stillPending);
    expect(text()).not.toContain('Payment Successful');
    expect(getCart()).toEqual(before);
    expect(link('View My Orders')?.getAttribute('href')).toBe('/orders');
  });

  it('says what it knows of a failed or cancelled order, and asks once', async () => {
    for (const [status, label] of [
      ['failed', 'Payment Failed'],
      ['cancelled', 'Cancelled'],
    ]) {
      statuses = [paidOrder(status!)];
      calls = [];
      clearCart();
      addCartItem(line('m_cube', 2));
      await mount('/payment-success?session_id=cs_sim_abc');
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3));
      expect(heading()).toBe('No completed payment');
      expect(state()).toBe(`Order #12: ${label}`);
      expect(statusCalls()).toHaveLength(1);
      expect(lines()).toEqual(['m_cube:2']);
      unmount();
    }
  });

  it("claims nothing for another customer's or an unknown session id (404)", async () => {
    statuses = [json({ error: 'Order not found.' }, 404)];
    addCartItem(line('m_cube', 2));
    // This browser's cart is the account's, saved: nothing to send unless the page changes it.
    localStorage.setItem(OWNER_KEY, 'ada');
    accountCart = json({ items: getCart() });
    const before = getCart();
    await mount('/payment-success?session_id=cs_sim_someone_else');
    expect(heading()).toBe('No completed payment');
    expect(text()).toContain(STATUS_MSG.notFound);
    expect(text()).toContain(STATUS_MSG.notFoundHint);
    expect(state()).toBe('');
    expect(getCart()).toEqual(before);
    expect(calls.filter((c) => c.startsWith('PUT'))).toEqual([]);
  });

  it('without a session id asks nothing and claims nothing', async () => {
    addCartItem(line('m_cube', 2));
    const before = getCart();
    await mount('/payment-success');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(statusCalls()).toEqual([]);
    expect(heading()).toBe('No completed payment');
    expect(text()).toContain(STATUS_MSG.notFound);
    expect(getCart()).toEqual(before);
  });

  it('says when the shop could not be asked', async () => {
    statuses = [json({ error: 'Something went wrong.' }, 500)];
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('No completed payment');
    expect(text()).toContain(STATUS_MSG.failed);
  });

  it('logged out: asks nothing, and offers a login that comes back here', async () => {
    loggedIn = false;
    addCartItem(line('m_cube', 2));
    const before = getCart();
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Log in to see your payment');
    expect(document.title).toBe('Log in to see your payment · Badger Print Co.');
    expect(text()).toContain(STATUS_MSG.loggedOut);
    expect(link('Log in')?.getAttribute('href')).toBe('/login');
    expect(statusCalls()).toEqual([]);
    expect(getCart()).toEqual(before);
  });

  it('a session that ended meanwhile (401) is logged out too', async () => {
    statuses = [json({ error: 'Not logged in.' }, 401)];
    await mount('/payment-success?session_id=cs_sim_abc');
    expect(heading()).toBe('Log in to see your payment');
  });
});

const pendingOrder = {
  id: 7,
  status: 'pending',
  created_at: '2026-11-25T12:00:00.000Z',
  total_amount: 24,
  currency: 'usd',
  tracking_number: null,
  items: [],
  payment_url: 'http://shop.test/pay/simulator/cs_sim_x',
  can_cancel: true,
};

describe('/payment-cancel', () => {
  it('leaves the cart alone and links to it with the specified text; without an order it asks nothing', async () => {
    addCartItem(line('m_cube', 2));
    const before = getCart();
    await mount('/payment-cancel', 'cancel');
    expect(getCart()).toEqual(before);
    expect(text()).toContain(
      'Order Cancelled or Payment Failed. Your cart has not been changed. You can try checking out again.',
    );
    expect(link('View Cart')?.getAttribute('href')).toBe('/#cart-section');
    expect(calls.filter((c) => c.includes('get_orders'))).toEqual([]);
  });

  it('shows the pending order as My Orders does, and cancels it after a confirmation', async () => {
    addCartItem(line('m_cube', 2));
    const before = getCart();
    orders = [json([pendingOrder])];
    await mount('/payment-cancel?order=7', 'cancel');
    expect(state()).toContain('Order #7: Pending Payment');
    expect(link('Complete payment')?.getAttribute('href')).toBe(pendingOrder.payment_url);

    vi.mocked(confirm).mockReturnValueOnce(false);
    await act(async () => button('Cancel this order')!.click());
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);

    await act(async () => button('Cancel this order')!.click());
    await settle();
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Cancel order #7?'));
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /api/orders/7/cancel']);
    expect(state()).toContain('Order #7: Cancelled');
    expect(text()).toContain('Order #7 is cancelled.');
    expect(button('Cancel this order')).toBeUndefined();
    expect(link('Complete payment')).toBeUndefined();
    expect(getCart()).toEqual(before);
  });

  it("shows the server's refusal and the order's state as it is now", async () => {
    orders = [json([pendingOrder]), json([{ ...pendingOrder, status: 'paid', can_cancel: false }])];
    cancelAnswer = json({ error: 'This order was just paid, so it was not cancelled.' }, 409);
    await mount('/payment-cancel?order=7', 'cancel');
    await act(async () => button('Cancel this order')!.click());
    await settle();
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'This order was just paid, so it was not cancelled.',
    );
    expect(state()).toContain('Order #7: Paid / Processing');
    expect(button('Cancel this order')).toBeUndefined();
  });

  it('shows nothing more for an order that is not the customer’s, and offers a login when logged out', async () => {
    orders = [json([pendingOrder])];
    await mount('/payment-cancel?order=8', 'cancel');
    expect(state()).toBe('');
    unmount();

    loggedIn = false;
    calls = [];
    await mount('/payment-cancel?order=7', 'cancel');
    expect(text()).toContain(STATUS_MSG.cancelLoggedOut);
    expect(link('Log in')?.getAttribute('href')).toBe('/login');
    expect(calls.filter((c) => c.includes('get_orders'))).toEqual([]);
  });
});
