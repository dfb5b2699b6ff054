// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CartItem } from '../cart/cart-item.ts';
import { addCartItem, CART_KEY, clearCart, getCart } from '../cart/cart-store.ts';
import OrdersPage from './OrdersPage.tsx';

// My Orders in a DOM, from a stubbed get_orders.php: the checkout's fields (line_total, payment_url,
// ship_by, shipping method, tax, arrival window), the back office's (test mode, carrier and tracking page,
// refunds, notes, cancelling), Order again (into the cart store) and the specified texts.

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
  arrives_from: null,
  arrives_by: null,
  subtotal: 213.37,
  shipping_amount: 0,
  shipping_method: 'US Standard',
  tax_amount: 0,
  tax_lines: [],
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
let againAnswer: Answer;
let posts: string[];
let container: HTMLDivElement;
let root: Root;

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  let answer: Answer;
  if (init?.method === 'POST') {
    posts.push(url);
    answer = url.endsWith('/order-again') ? againAnswer : cancelAnswer;
  } else answer = answers.length > 1 ? answers.shift()! : answers[0]!;
  return Promise.resolve(Response.json(answer.body, { status: answer.status, statusText: 'Nope' }));
}

/** Lets the stubbed calls answer and the page render what they said. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

async function mount(...bodies: Answer[]) {
  if (bodies.length) answers = bodies;
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  root = createRoot(container);
  await act(async () =>
    root.render(
      <MemoryRouter initialEntries={['/orders']}>
        <OrdersPage />
      </MemoryRouter>,
    ),
  );
  await settle();
}

let answer: Answer;
const text = () => container.textContent ?? '';
const button = (name: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === name);
/** The value of an order's fact by its name ('Subtotal' -> '$76.50'), in the first order. */
const fact = (name: string, scope: ParentNode = container) =>
  [...scope.querySelectorAll('.order-facts > div')]
    .find((d) => d.querySelector('dt')?.textContent === name)
    ?.querySelector('dd')?.textContent;

beforeEach(() => {
  answers = [];
  posts = [];
  cancelAnswer = { status: 200, body: { id: 7, status: 'cancelled' } };
  againAnswer = { status: 200, body: { items: [], unavailable: [] } };
  clearCart();
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
  clearCart();
});

describe('My Orders', () => {
  it('shows a paid order: line total after the discount, ship-by date, address, item fields', async () => {
    answer = { status: 200, body: [order({})] };
    await mount(answer);
    expect(container.querySelector('.status-badge')?.textContent).toBe('Paid / Processing');
    expect(container.querySelector('.line-total')?.textContent).toBe('$213.37');
    expect(text()).toContain('Includes a quantity discount.');
    expect(container.querySelector('[data-testid="ship-by"]')?.textContent).toBe('Wed, Dec 2');
    const lines = [...container.querySelectorAll('address span')].map((s) => s.textContent);
    expect(lines).toEqual(['Ada Lovelace', '1 Capitol Square', 'Toronto, ON M5V 2T6', 'Canada']);
    expect(text()).toContain('Quantity: 10');
    expect(text()).toContain('Solid (5/5)');
    expect(text()).toContain('Unit cost: $22.46');
    expect(text()).toContain('Notes: Flat side down.');
    expect(text()).toContain('$213.37 USD');
    expect(container.querySelector('a')).toBeNull();
    // Free shipping (above the method's threshold), no tax, no arrival window yet.
    expect(fact('Subtotal')).toBe('$213.37');
    expect(fact('Shipping (US Standard)')).toBe('Free');
    expect(container.querySelector('[data-testid="tax"]')).toBeNull();
    expect(container.querySelector('[data-testid="arrives"]')).toBeNull();
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

  it('keeps the specified texts: empty, no items, failure', async () => {
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

  it('shows a paid order in parts: subtotal, the shipping method and its price, each tax, ships by and arrives', async () => {
    answer = {
      status: 200,
      body: [
        order({
          status: 'queued',
          total_amount: 101.64,
          subtotal: 76.5,
          shipping_amount: 19.95,
          shipping_method: 'US Expedited',
          tax_amount: 5.19,
          tax_lines: [
            { label: 'Sales tax 5.5 % (WI)', amount: 4.21 },
            { label: 'County tax 0.5 %', amount: 0.98 },
          ],
          ship_by: '2026-12-01',
          arrives_from: '2026-12-03',
          arrives_by: '2026-12-07',
        }),
        order({
          id: 6,
          status: 'shipped',
          shipping_amount: 6.95,
          shipping_method: 'US Standard',
          ship_by: '2026-11-30',
          arrives_from: '2026-11-30',
          arrives_by: '2026-12-02',
        }),
      ],
    };
    await mount(answer);
    const [queued, shipped] = [...container.querySelectorAll('.order-card')];
    expect(fact('Subtotal', queued)).toBe('$76.50');
    expect(fact('Shipping (US Expedited)', queued)).toBe('$19.95');
    expect(fact('Sales tax 5.5 % (WI)', queued)).toBe('$4.21');
    expect(fact('County tax 0.5 %', queued)).toBe('$0.98');
    expect(fact('Total', queued)).toBe('$101.64 USD');
    expect(fact('Ships by', queued)).toBe('Tue, Dec 1');
    expect(fact('Arrives', queued)).toBe('Dec 3-7');
    // Shipped: the price of the method, no ship-by date any more, the window across months.
    expect(fact('Shipping (US Standard)', shipped)).toBe('$6.95');
    expect(fact('Ships by', shipped)).toBeUndefined();
    expect(fact('Arrives', shipped)).toBe('Nov 30-Dec 2');
    expect(shipped?.querySelector('[data-testid="tax"]')).toBeNull();
  });

  it('shows no money parts or dates on an order waiting for its payment', async () => {
    answer = {
      status: 200,
      body: [order({ status: 'pending', arrives_from: '2026-12-03', arrives_by: '2026-12-07' })],
    };
    await mount(answer);
    expect(fact('Subtotal')).toBeUndefined();
    expect(container.querySelector('[data-testid="shipping"]')).toBeNull();
    expect(container.querySelector('[data-testid="arrives"]')).toBeNull();
    expect(fact('Total')).toBe('$213.37 USD');
  });

  it("puts an order's lines back in the cart at today's prices, merged as adding merges, and lists what could not be", async () => {
    const line = (over: Partial<CartItem>): CartItem => ({
      id: 'server-id',
      filePath: 'm_block',
      fileName: 'block.obj',
      color: '#dc3545',
      strength: 5,
      cost: 24.1,
      quantity: 3,
      previewImage: '/api/models/m_block/preview.png',
      volumeCm3: 64,
      dimensions: { x: 40, y: 40, z: 40 },
      notes: 'Flat side down.',
      ...over,
    });
    // Already in the cart: 2 red solid blocks at the old price, and something else.
    const add = ({ id: _, ...rest }: CartItem) => addCartItem(rest);
    add(line({ quantity: 2, cost: 22.46 }));
    add(line({ filePath: 'm_other', fileName: 'other.stl', quantity: 1 }));
    againAnswer = {
      status: 200,
      body: {
        items: [line({}), line({ id: 'server-2', color: '#007bff', quantity: 1, cost: 20 })],
        unavailable: [
          { fileName: 'old.stl', reason: 'This model is no longer stored.' },
          { fileName: 'teal.stl', reason: 'This color is no longer offered.' },
        ],
      },
    };
    answer = { status: 200, body: [order({ status: 'cancelled' }), order({ id: 6 })] };
    await mount(answer);
    const [first, second] = [...container.querySelectorAll('.order-card')];
    expect(second?.querySelector('.order-again button')?.textContent).toBe('Order again');
    await act(async () => first!.querySelector<HTMLButtonElement>('.order-again button')!.click());
    await settle();
    expect(posts).toEqual(['/api/orders/7/order-again']);

    const cart = getCart();
    expect(cart.map((i) => [i.filePath, i.color, i.quantity, i.cost])).toEqual([
      ['m_block', '#dc3545', 5, 24.1],
      ['m_other', '#dc3545', 1, 24.1],
      ['m_block', '#007bff', 1, 20],
    ]);
    // A line of its own, not the server's id; saved where the cart lives.
    expect(cart[2]?.id).not.toBe('server-2');
    expect(JSON.parse(localStorage.getItem(CART_KEY)!)).toHaveLength(3);

    const notice = first?.querySelector('.order-again [role="status"]');
    expect(notice?.textContent).toBe("4 items are back in your cart at today's prices. View cart");
    expect(notice?.querySelector('a')?.getAttribute('href')).toBe('/#cart-section');
    const alert = first?.querySelector('.order-again [role="alert"]');
    expect(alert?.querySelector('strong')?.textContent).toBe('Not added to your cart:');
    expect([...(alert?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'old.stl: This model is no longer stored.',
      'teal.stl: This color is no longer offered.',
    ]);
    // The other order shows no notice.
    expect(second?.querySelector('[role="status"], [role="alert"]')).toBeNull();
  });

  it('says "1 item" for one piece, and only lists the lines when none could come back', async () => {
    answer = { status: 200, body: [order({})] };
    againAnswer = {
      status: 200,
      body: {
        items: [
          {
            id: 'x',
            filePath: 'm_block',
            fileName: 'block.obj',
            color: '#dc3545',
            strength: 5,
            cost: 24.1,
            quantity: 1,
            previewImage: '',
            volumeCm3: 64,
            dimensions: { x: 40, y: 40, z: 40 },
            notes: '',
          },
        ],
        unavailable: [],
      },
    };
    await mount(answer);
    await act(async () => button('Order again')!.click());
    await settle();
    expect(container.querySelector('[role="status"]')?.textContent).toBe(
      "1 item is back in your cart at today's prices. View cart",
    );
    expect(container.querySelector('[role="alert"]')).toBeNull();

    againAnswer = {
      status: 200,
      body: { items: [], unavailable: [{ fileName: 'old.stl', reason: 'This model is no longer stored.' }] },
    };
    await act(async () => button('Order again')!.click());
    await settle();
    expect(container.querySelector('[role="status"]')).toBeNull();
    expect(container.querySelector('[role="alert"] li')?.textContent).toBe(
      'old.stl: This model is no longer stored.',
    );
    expect(getCart()).toHaveLength(1);
  });

  it("shows the server's error when the order cannot be given back, and leaves the cart alone", async () => {
    againAnswer = { status: 404, body: { error: 'Order not found.' } };
    answer = { status: 200, body: [order({})] };
    await mount(answer);
    let release: (r: Response) => void = () => {};
    vi.mocked(fetch).mockImplementationOnce((input) => {
      posts.push(String(input));
      return new Promise<Response>((r) => {
        release = r;
      });
    });
    await act(async () => button('Order again')!.click());
    const busy = container.querySelector('.order-again button') as HTMLButtonElement;
    expect(busy.textContent).toBe('Adding…');
    expect(busy.disabled).toBe(true);
    await act(async () => release(Response.json({ error: 'Order not found.' }, { status: 404 })));
    await settle();
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Order not found.');
    expect(container.querySelector('[role="status"]')).toBeNull();
    expect(getCart()).toEqual([]);
    expect(button('Order again')?.disabled).toBe(false);
  });
});
