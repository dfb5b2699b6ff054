// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrdersPage, { formatDay } from './OrdersPage.tsx';

// My Orders in a DOM, from a stubbed get_orders.php: the checkout's fields (line_total, payment_url,
// ship_by), the back office's (test mode, carrier and tracking page, refunds, notes, cancelling) and SPEC's
// texts.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const item = {
  item_id: 1,
  file_name: 'block.obj',
  unique_file_path: 'm_block',
  preview_image_url: '/api/models/m_block/preview.png',
  color: '#dc3545',
  strength: 5,
  cost: 22.46,
  quantity: 10,
  notes: 'Flat side down.',
  line_total: 213.37,
};
const address = {
  shipping_name: 'Ada Lovelace',
  shipping_line1: '1 Capitol Square',
  shipping_line2: null,
  shipping_city: 'Toronto',
  shipping_state: 'ON',
  shipping_postal_code: 'M5V 2T6',
  shipping_country: 'CA',
};
const order = (over: Record<string, unknown>) => ({
  id: 7,
  status: 'paid',
  created_at: '2026-11-25T12:00:00.000Z',
  total_amount: 213.37,
  currency: 'usd',
  tracking_number: null,
  ...address,
  items: [item],
  payment_url: null,
  ship_by: '2026-12-02',
  test_mode: false,
  carrier: null,
  tracking_url: null,
  amount_refunded: 0,
  refunds: [],
  notes: [],
  can_cancel: false,
  ...over,
});

type Answer = { status: number; body: unknown };
/** get_orders.php's answers, one after the other (the last one repeats). */
let answers: Answer[];
let cancelAnswer: Answer;
let posts: string[];
let container: HTMLDivElement;
let root: Root;

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  let answer: Answer;
  if (init?.method === 'POST') {
    posts.push(url);
    answer = cancelAnswer;
  } else answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  return Promise.resolve(Response.json(answer.body, { status: answer.status, statusText: 'Nope' }));
}

/** Lets the stubbed calls answer and the page render what they said. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

async function mount(...bodies: Answer[]) {
  if (bodies.length) answers = bodies;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  root = createRoot(container);
  await act(async () => root.render(<OrdersPage />));
  await settle();
}

let answer: Answer;
const text = () => container.textContent ?? '';
const button = (name: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === name);

beforeEach(() => {
  answers = [];
  posts = [];
  cancelAnswer = { status: 200, body: { id: 7, status: 'cancelled' } };
  vi.stubGlobal(
    'confirm',
    vi.fn(() => true),
  );
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

describe('My Orders', () => {
  it('shows a paid order: line total after the discount, ship-by date, address, item fields', async () => {
    answer = { status: 200, body: [order({})] };
    await mount(answer);
    expect(container.querySelector('.status-badge')?.textContent).toBe('Paid / Processing');
    expect(container.querySelector('.line-total')?.textContent).toBe('$213.37');
    expect(text()).toContain('Includes a quantity discount.');
    expect(container.querySelector('[data-testid="ship-by"]')?.textContent).toBe('December 2, 2026');
    const lines = [...container.querySelectorAll('address span')].map((s) => s.textContent);
    expect(lines).toEqual(['Ada Lovelace', '1 Capitol Square', 'Toronto, ON M5V 2T6', 'Canada']);
    expect(text()).toContain('Quantity: 10');
    expect(text()).toContain('Solid (5/5)');
    expect(text()).toContain('Unit cost: $22.46');
    expect(text()).toContain('Notes: Flat side down.');
    expect(text()).toContain('$213.37 USD');
    expect(container.querySelector('a')).toBeNull();
  });

  it('offers Complete payment on a pending order, and no ship-by date', async () => {
    answer = {
      status: 200,
      body: [order({ status: 'pending', payment_url: 'http://shop.test/pay/simulator/cs_sim_x' })],
    };
    await mount(answer);
    const pay = container.querySelector('a');
    expect(pay?.textContent).toBe('Complete payment');
    expect(button('Cancel order')).toBeUndefined();
    expect(pay?.getAttribute('href')).toBe('http://shop.test/pay/simulator/cs_sim_x');
    expect(container.querySelector('[data-testid="ship-by"]')).toBeNull();
  });

  it("marks a test order, and links a shipped order's tracking number with its carrier", async () => {
    answer = {
      status: 200,
      body: [
        order({
          status: 'shipped',
          test_mode: true,
          tracking_number: '9400111899223197428490',
          carrier: 'usps',
          tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
        }),
        order({ id: 6, test_mode: false }),
      ],
    };
    await mount(answer);
    const [shipped, paid] = [...container.querySelectorAll('.order-card')];
    expect(shipped?.querySelector('.test-order-mark')?.textContent).toBe('Test order: no money was taken');
    expect(paid?.querySelector('.test-order-mark')).toBeNull();
    const tracking = shipped?.querySelector('.tracking');
    expect(tracking?.textContent).toBe('USPS 9400111899223197428490 (opens in a new tab)');
    const a = tracking?.querySelector('a');
    expect(a?.getAttribute('href')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
    );
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toBe('noopener');
  });

  it('shows a tracking number without a tracking page as text', async () => {
    answer = {
      status: 200,
      body: [
        order({ status: 'shipped', tracking_number: 'ABC123456', carrier: 'other', tracking_url: null }),
      ],
    };
    await mount(answer);
    expect(container.querySelector('.tracking')?.textContent).toBe('Other ABC123456');
    expect(container.querySelector('.tracking a')).toBeNull();
  });

  it("lists refunds with their dates and the total refunded, and the shop's messages as text", async () => {
    answer = {
      status: 200,
      body: [
        order({
          amount_refunded: 30.5,
          refunds: [
            { amount: 10, created_at: '2026-11-26T15:00:00.000Z' },
            { amount: 20.5, created_at: '2026-11-28T15:00:00.000Z' },
          ],
          notes: [
            {
              text: 'Printed twice: <b>the first</b> warped.\nShipping today.',
              created_at: '2026-11-27T15:00:00.000Z',
            },
          ],
        }),
      ],
    };
    await mount(answer);
    expect([...container.querySelectorAll('.order-refunds li')].map((li) => li.textContent)).toEqual([
      'Refunded $10.00 on November 26, 2026',
      'Refunded $20.50 on November 28, 2026',
    ]);
    expect(container.querySelector('[data-testid="refunded"]')?.textContent).toBe('$30.50 USD');
    const note = container.querySelector('.shop-note');
    expect(note?.querySelector('.shop-note-head')?.textContent).toBe(
      'Message from the shop November 27, 2026',
    );
    expect(note?.querySelector('.shop-note-text')?.textContent).toBe(
      'Printed twice: <b>the first</b> warped.\nShipping today.',
    );
    expect(note?.querySelector('b')).toBeNull();
  });

  it('cancels a pending order after a confirmation: progress, then its new status, nothing else', async () => {
    answer = {
      status: 200,
      body: [
        order({
          status: 'pending',
          can_cancel: true,
          payment_url: 'http://shop.test/pay/simulator/cs_sim_x',
        }),
        order({ id: 6, status: 'pending', can_cancel: true, payment_url: null }),
      ],
    };
    await mount(answer);
    const [first, second] = [...container.querySelectorAll('.order-card')];
    expect(second?.querySelector('a')).toBeNull();
    vi.mocked(confirm).mockReturnValueOnce(false);
    const cancel = () =>
      [...first!.querySelectorAll('button')].find((b) => /Cancel order|Cancelling/.test(b.textContent ?? ''));
    await act(async () => cancel()!.click());
    expect(posts).toEqual([]);

    let release: (r: Response) => void = () => {};
    vi.mocked(fetch).mockImplementationOnce((input) => {
      posts.push(String(input));
      return new Promise<Response>((r) => {
        release = r;
      });
    });
    await act(async () => cancel()!.click());
    expect(confirm).toHaveBeenLastCalledWith(expect.stringContaining('Cancel order #7?'));
    expect(cancel()?.textContent).toBe('Cancelling…');
    expect(cancel()?.disabled).toBe(true);
    await act(async () => release(Response.json({ id: 7, status: 'cancelled' })));
    await settle();
    expect(posts).toEqual(['/api/orders/7/cancel']);
    expect(first?.querySelector('.status-badge')?.textContent).toBe('Cancelled');
    expect(first?.textContent).toContain('Order #7 is cancelled.');
    expect(cancel()).toBeUndefined();
    expect(first?.querySelector('a')).toBeNull();
    // The other order is as it was.
    expect(second?.querySelector('.status-badge')?.textContent).toBe('Pending Payment');
    expect(second?.querySelector('button')?.textContent).toBe('Cancel order');
  });

  it("shows the server's refusal in an alert and reads the orders again", async () => {
    cancelAnswer = {
      status: 409,
      body: {
        error:
          'This order was just paid, so it was not cancelled. Please contact us if you want to cancel it.',
      },
    };
    await mount(
      { status: 200, body: [order({ status: 'pending', can_cancel: true })] },
      { status: 200, body: [order({ status: 'paid', can_cancel: false })] },
    );
    await act(async () => button('Cancel order')!.click());
    await settle();
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'This order was just paid, so it was not cancelled. Please contact us if you want to cancel it.',
    );
    expect(container.querySelector('.status-badge')?.textContent).toBe('Paid / Processing');
    expect(button('Cancel order')).toBeUndefined();
  });

  it('offers neither Complete payment nor Cancel when the server says the order cannot be', async () => {
    answer = { status: 200, body: [order({ status: 'pending', can_cancel: false, payment_url: null })] };
    await mount(answer);
    expect(container.querySelector('.status-badge')?.textContent).toBe('Pending Payment');
    expect(container.querySelector('a')).toBeNull();
    expect(button('Cancel order')).toBeUndefined();
  });

  it('reads an order without the checkout fields: cost x quantity', async () => {
    const { line_total: _, ...old } = item;
    answer = { status: 200, body: [order({ items: [{ ...old, quantity: 2 }], ship_by: undefined })] };
    await mount(answer);
    expect(container.querySelector('.line-total')?.textContent).toBe('$44.92');
    expect(text()).not.toContain('quantity discount');
  });

  it("keeps SPEC's texts: empty, no items, failure", async () => {
    answer = { status: 200, body: [] };
    await mount(answer);
    expect(text()).toContain("You haven't placed any orders yet.");
    act(() => root.unmount());

    answer = { status: 200, body: [order({ items: [] })] };
    await mount(answer);
    expect(text()).toContain('No item details found for this order.');
    act(() => root.unmount());

    answer = { status: 500, body: {} };
    await mount(answer);
    expect(text()).toContain('Failed to fetch orders: Nope (500)');
  });
});

describe('formatDay', () => {
  it('reads YYYY-MM-DD as that calendar day in any time zone', () => {
    expect(formatDay('2026-12-02')).toBe('December 2, 2026');
    expect(formatDay('soon')).toBe('soon');
  });
});
