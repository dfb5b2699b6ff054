// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDimensions } from '../../shared/format.ts';
import OrdersPage from './OrdersPage.tsx';

// My Orders' lines as ordered (issue #26): each line's size, its preview in its colour, and the 3D view
// opened at the size ordered (a model rescaled from inches shares its original's view mesh).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const opened: Record<string, unknown>[] = [];
vi.mock('../viewer/ViewerModal.tsx', () => ({
  default: (props: Record<string, unknown>) => {
    opened.push(props);
    return null;
  },
}));

const line = {
  item_id: 1,
  file_name: 'inch-cube.stl',
  unique_file_path: 'm_scaled',
  preview_image_url: '/api/models/m_scaled/preview.png?color=red',
  color: '#dc3545',
  strength: 3,
  cost: 12,
  line_total: 12,
  quantity: 1,
  notes: '',
  dimensions: { x: 50.8, y: 50.8, z: 50.8 },
  scale: 25.4,
};
const order = {
  id: 3,
  status: 'paid',
  created_at: '2026-11-25T12:00:00.000Z',
  total_amount: 24,
  currency: 'usd',
  tracking_number: null,
  shipping_name: null,
  shipping_line1: null,
  shipping_line2: null,
  shipping_city: null,
  shipping_state: null,
  shipping_postal_code: null,
  shipping_country: null,
  items: [
    line,
    // A line from before sizes were sent, with a preview path that does not ask for a colour.
    {
      ...line,
      item_id: 2,
      file_name: 'old.stl',
      unique_file_path: 'm_old',
      preview_image_url: '/api/models/m_old/preview.png',
      color: 'green',
      dimensions: undefined,
      scale: undefined,
    },
  ],
};

let container: HTMLDivElement;
let root: Root;
beforeEach(async () => {
  opened.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json([order])),
  );
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () =>
    root.render(
      <MemoryRouter initialEntries={['/orders']}>
        <OrdersPage />
      </MemoryRouter>,
    ),
  );
  await act(() => new Promise((r) => setTimeout(r, 0)));
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

const items = () => [...container.querySelectorAll('.order-item')];

describe('My Orders: each line as ordered', () => {
  it('shows the size ordered, like the upload card, and nothing for a line without one', () => {
    const [scaled, old] = items();
    expect(scaled!.querySelector('[data-testid="dimensions"]')!.textContent).toBe(
      formatDimensions({ x: 50.8, y: 50.8, z: 50.8 }),
    );
    expect(scaled!.textContent).toContain('Size: 50.8');
    expect(old!.querySelector('[data-testid="dimensions"]')).toBeNull();
  });

  it('shows each preview in its line’s colour', () => {
    const srcs = items().map((i) => i.querySelector('img')!.getAttribute('src'));
    expect(srcs).toEqual([
      '/api/models/m_scaled/preview.png?color=red',
      '/api/models/m_old/preview.png?color=green',
    ]);
  });

  it('opens the 3D view at the size ordered', async () => {
    const [scaled, old] = items();
    for (const item of [scaled!, old!]) {
      const view = [...item.querySelectorAll('button')].find((b) => b.textContent === 'View 3D Model')!;
      await act(async () => view.click());
      await act(() => new Promise((r) => setTimeout(r, 0)));
    }
    expect(opened.at(0)).toMatchObject({
      url: '/api/models/m_scaled/view.glb',
      color: '#dc3545',
      scale: 25.4,
    });
    expect(opened.at(-1)).toMatchObject({ url: '/api/models/m_old/view.glb', scale: 1 });
  });
});
