// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderDetail, AdminOrderItem } from '../../../shared/admin.ts';
import { ItemsPanel } from './ItemsPanel.tsx';

// The order's items in the back office (issue #26): each preview in its line's colour, and the 3D view at
// the size ordered (a model rescaled from inches shares its original's view mesh).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const opened: Record<string, unknown>[] = [];
vi.mock('../../viewer/ViewerModal.tsx', () => ({
  default: (props: Record<string, unknown>) => {
    opened.push(props);
    return null;
  },
}));

const item: AdminOrderItem = {
  id: 5,
  modelId: 'm_scaled',
  fileName: 'inch-cube.stl',
  previewUrl: '/api/models/m_scaled/preview.png',
  color: '#dc3545',
  strength: 3,
  quantity: 1,
  notes: '',
  unitCents: 1200,
  lineCents: 1200,
  discountPercent: 0,
  dimensions: { x: 50.8, y: 50.8, z: 50.8 },
  volumeCm3: 131.1,
  grams: null,
  printHours: null,
  printedAt: null,
  reprints: 0,
  correctedShells: 0,
};
// Only what the panel reads.
const order = {
  id: 9,
  status: 'paid',
  items: [item],
  subtotalCents: 1200,
  shippingCents: 0,
  taxCents: 0,
  taxLines: [],
  totalCents: 1200,
  currency: 'usd',
  testMode: true,
  shipping: { method: null },
} as unknown as AdminOrderDetail;

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  opened.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ id: 'm_scaled', scale: 25.4 })),
  );
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(<ItemsPanel order={order} onChange={() => {}} />));
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

describe('ItemsPanel', () => {
  it('shows the preview in the line’s colour', () => {
    expect(container.querySelector('.admin-item img')!.getAttribute('src')).toBe(
      '/api/models/m_scaled/preview.png?color=red',
    );
  });

  it('opens the 3D view at the size ordered', async () => {
    const view = [...container.querySelectorAll('button')].find((b) => b.textContent === 'View 3D')!;
    await act(async () => view.click());
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(opened.at(-1)).toMatchObject({
      url: '/api/models/m_scaled/view.glb',
      color: '#dc3545',
      scale: 25.4,
    });
  });
});
