// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CartLine } from './CartLine.tsx';
import type { CartItem } from './cart-item.ts';

// A cart line's preview is drawn in the line's colour (issue #26: a red line showed a blue picture).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const item: CartItem = {
  id: 'line-1',
  filePath: 'm_part',
  fileName: 'part.stl',
  color: '#dc3545',
  strength: 3,
  cost: 12,
  quantity: 1,
  previewImage: '/api/models/m_part/preview.png',
  volumeCm3: 8,
  dimensions: { x: 20, y: 20, z: 20 },
  notes: '',
};

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe('CartLine', () => {
  it.each([
    ['#dc3545', 'red'],
    ['yellow', 'yellow'],
  ])('asks for the preview in the line’s colour (%s)', (color, id) => {
    act(() =>
      root.render(
        <ul>
          <CartLine item={{ ...item, color }} index={0} quoted={undefined} unpriced="updating" />
        </ul>,
      ),
    );
    expect(container.querySelector('img')!.getAttribute('src')).toBe(
      `/api/models/m_part/preview.png?color=${id}`,
    );
  });
});
