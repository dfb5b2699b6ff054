import { describe, expect, it } from 'vitest';
import type { ModelPayload } from '../../shared/models.ts';
import { addToCart } from '../cart/cart-item.ts';
import { listPrice, parseQuantity, toCartItem } from './choices.ts';

const model: ModelPayload = {
  id: 'm_8f2a',
  fileName: 'bracket.obj',
  format: 'obj',
  triangles: 12,
  volumeCm3: 6,
  areaCm2: 22,
  dimensions: { x: 30, y: 20, z: 10 },
  scale: 1,
  watertight: true,
  fits: true,
  warnings: [],
  previewImage: '/api/models/m_8f2a/preview.png',
  prices: { '1': 12, '2': 12.5, '3': 13.25, '4': 15, '5': 19.99 },
};

describe('parseQuantity', () => {
  it('takes whole numbers from 1 to 100', () => {
    expect(parseQuantity('1')).toBe(1);
    expect(parseQuantity(' 12 ')).toBe(12);
    expect(parseQuantity('100')).toBe(100);
    expect(parseQuantity('101')).toBeNull();
  });

  it('refuses anything else', () => {
    for (const text of ['', '0', '-2', '1.5', '1e3', 'abc', '1001'])
      expect(parseQuantity(text), text).toBeNull();
  });
});

describe('toCartItem', () => {
  it('fills every field of the cart line of docs/domain.md', () => {
    const item = toCartItem(
      model,
      { color: '#dc3545', strength: 4, quantity: 3, notes: 'Matte, please' },
      15,
    );
    expect(item).toEqual({
      filePath: 'm_8f2a',
      fileName: 'bracket.obj',
      color: '#dc3545',
      strength: 4,
      cost: 15,
      quantity: 3,
      previewImage: '/api/models/m_8f2a/preview.png',
      volumeCm3: 6,
      dimensions: { x: 30, y: 20, z: 10 },
      notes: 'Matte, please',
    });
  });

  it('rounds the cost to cents and keeps notes to 1000 characters', () => {
    const item = toCartItem(
      model,
      { color: '#007bff', strength: 3, quantity: 1, notes: 'x'.repeat(1200) },
      13.254,
    );
    expect(item.cost).toBe(13.25);
    expect(item.notes).toHaveLength(1000);
  });

  it('makes a line the cart keeps as it is', () => {
    const [line] = addToCart(
      [],
      toCartItem(model, { color: '#28a745', strength: 2, quantity: 2, notes: '' }, 12.5),
    );
    expect(line).toMatchObject({
      filePath: 'm_8f2a',
      color: '#28a745',
      strength: 2,
      cost: 12.5,
      quantity: 2,
    });
    expect(Object.keys(line!).sort()).toEqual(
      [
        'id',
        'filePath',
        'fileName',
        'color',
        'strength',
        'cost',
        'quantity',
        'previewImage',
        'volumeCm3',
        'dimensions',
        'notes',
      ].sort(),
    );
  });

  it('reads list prices by strength', () => {
    expect(listPrice(model, 1)).toBe(12);
    expect(listPrice(model, 5)).toBe(19.99);
  });
});
