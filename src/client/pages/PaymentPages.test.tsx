// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addCartItem, clearCart, getCart } from '../cart/cart-store.ts';
import { POLL_LIMIT, POLL_MS } from './checkout-status.ts';
import { PaymentCancelPage, PaymentSuccessPage, STATUS_MSG } from './PaymentPages.tsx';

// The pages the payment provider sends the customer back to.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let statuses: string[];
let calls: string[];

function fakeFetch(input: RequestInfo | URL): Promise<Response> {
  const url = String(input);
  calls.push(url);
  const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
  return Promise.resolve(Response.json({ orderId: 12, status }));
}

let container: HTMLDivElement;
let root: Root;

async function mount(path: string, page: 'success' | 'cancel' = 'success') {
  root = createRoot(container);
  await act(async () =>
    root.render(
      <MemoryRouter initialEntries={[path]}>
        {page === 'success' ? <PaymentSuccessPage /> : <PaymentCancelPage />}
      </MemoryRouter>,
    ),
  );
}

const text = () => container.textContent ?? '';
const state = () => container.querySelector('[data-testid="order-state"]')?.textContent ?? '';
const cartLine = {
  filePath: 'm_cube',
  fileName: 'cube.stl',
  color: '#007bff',
  previewImage: '',
  volumeCm3: 8,
  dimensions: { x: 20, y: 20, z: 20 },
};

beforeEach(() => {
  vi.useFakeTimers();
  statuses = ['paid'];
  calls = [];
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  clearCart();
});

describe('/payment-success', () => {
  it("clears the cart, shows SPEC's text and the order's state", async () => {
    addCartItem(cartLine);
    await mount('/payment-success?session_id=cs_sim_abc');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(getCart()).toEqual([]);
    expect(text()).toContain(
      "Payment Successful! Your order is being processed. You can view it in 'My Orders' shortly.",
    );
    expect(state()).toBe('Order #12: Paid / Processing');
    expect(calls).toEqual(['/api/checkout/status?session_id=cs_sim_abc']);
  });

  it('asks again while the order is pending, and stops once it is paid', async () => {
    statuses = ['pending', 'pending', 'paid'];
    await mount('/payment-success?session_id=cs_sim_abc');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(state()).toContain('Order #12: Pending Payment');
    expect(state()).toContain(STATUS_MSG.checking);
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2));
    expect(state()).toBe('Order #12: Paid / Processing');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 5));
    expect(calls).toHaveLength(3);
  });

  it('gives up after a while and says the payment is still being confirmed', async () => {
    statuses = ['pending'];
    await mount('/payment-success?session_id=cs_sim_abc');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * (POLL_LIMIT + 3)));
    expect(calls).toHaveLength(POLL_LIMIT);
    expect(state()).toContain(STATUS_MSG.stillPending);
  });

  it('without a session id asks nothing', async () => {
    await mount('/payment-success');
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(calls).toEqual([]);
    expect(state()).toBe('');
  });
});

describe('/payment-cancel', () => {
  it("leaves the cart alone and links to it with SPEC's text", async () => {
    addCartItem(cartLine);
    await mount('/payment-cancel', 'cancel');
    expect(getCart()).toHaveLength(1);
    expect(text()).toContain(
      'Order Cancelled or Payment Failed. Your cart has not been changed. You can try checking out again.',
    );
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/#cart-section');
  });
});
