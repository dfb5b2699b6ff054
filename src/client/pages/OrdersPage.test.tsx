// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrdersPage, { formatDay } from './OrdersPage.tsx';

// My Orders in a DOM, from a stubbed get_orders.php: the checkout's fields (line_total, payment_url,
// ship_by) and SPEC's texts.

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
  ...over,
});

let answer: { status: number; body: unknown };
let container: HTMLDivElement;
let root: Root;

async function mount() {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(Response.json(answer.body, { status: answer.status, statusText: 'Nope' }))),
  );
  root = createRoot(container);
  await act(async () => root.render(<OrdersPage />));
  await act(() => new Promise((r) => setTimeout(r, 0)));
}

const text = () => container.textContent ?? '';

beforeEach(() => {
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
    await mount();
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
    await mount();
    const pay = container.querySelector('a');
    expect(pay?.textContent).toBe('Complete payment');
    expect(pay?.getAttribute('href')).toBe('http://shop.test/pay/simulator/cs_sim_x');
    expect(container.querySelector('[data-testid="ship-by"]')).toBeNull();
  });

  it('reads an order without the checkout fields: cost x quantity', async () => {
    const { line_total: _, ...old } = item;
    answer = { status: 200, body: [order({ items: [{ ...old, quantity: 2 }], ship_by: undefined })] };
    await mount();
    expect(container.querySelector('.line-total')?.textContent).toBe('$44.92');
    expect(text()).not.toContain('quantity discount');
  });

  it("keeps SPEC's texts: empty, no items, failure", async () => {
    answer = { status: 200, body: [] };
    await mount();
    expect(text()).toContain("You haven't placed any orders yet.");
    act(() => root.unmount());

    answer = { status: 200, body: [order({ items: [] })] };
    await mount();
    expect(text()).toContain('No item details found for this order.');
    act(() => root.unmount());

    answer = { status: 500, body: {} };
    await mount();
    expect(text()).toContain('Failed to fetch orders: Nope (500)');
  });
});

describe('formatDay', () => {
  it('reads YYYY-MM-DD as that calendar day in any time zone', () => {
    expect(formatDay('2026-12-02')).toBe('December 2, 2026');
    expect(formatDay('soon')).toBe('soon');
  });
});
