import { describe, expect, it } from 'vitest';
import {
  addToCart,
  cartCount,
  normalizeCart,
  normalizeCartItem,
  removeFromCart,
  replaceModel,
  setQuantity,
  withUnitPrices,
} from './cart-item.ts';

const base = {
  filePath: 'm_abc',
  fileName: 'cube.stl',
  color: '#007bff',
  previewImage: '/api/models/m_abc/preview.png',
  volumeCm3: 8,
  dimensions: { x: 20, y: 20, z: 20 },
};

describe('normalisation on load (docs/domain.md)', () => {
  it('fills the defaults of docs/domain.md', () => {
    const item = normalizeCartItem({ ...base, id: 'a' })!;
    expect(item).toMatchObject({ strength: 3, cost: 0, quantity: 1, notes: '' });
  });

  it('turns quantity below 1 into 1, strength outside 1-5 into 3 and cost into a number', () => {
    const [a, b, c] = normalizeCart([
      { ...base, id: 'a', quantity: 0, strength: 9, cost: '14.5' },
      { ...base, id: 'b', quantity: -4, strength: 0, cost: 'abc' },
      { ...base, id: 'c', quantity: 3, strength: 5, cost: 20 },
    ]);
    expect(a).toMatchObject({ quantity: 1, strength: 3, cost: 14.5 });
    expect(b).toMatchObject({ quantity: 1, strength: 3, cost: 0 });
    expect(c).toMatchObject({ quantity: 3, strength: 5, cost: 20 });
  });

  it('drops what is not a cart line and survives a non-array', () => {
    expect(normalizeCart([null, 7, 'x', { ...base }])).toHaveLength(1);
    expect(normalizeCart({ not: 'an array' })).toEqual([]);
  });
});

describe('adding, changing and removing lines', () => {
  it('merges a line identical in filePath, color and strength and updates its cost', () => {
    let cart = addToCart([], { ...base, strength: 3, cost: 12, quantity: 1 });
    cart = addToCart(cart, { ...base, strength: 3, cost: 13.5, quantity: 2 });
    expect(cart).toHaveLength(1);
    expect(cart[0]).toMatchObject({ quantity: 3, cost: 13.5 });
  });

  it('adds a new line when the color or strength differs', () => {
    let cart = addToCart([], { ...base, strength: 3, cost: 12 });
    cart = addToCart(cart, { ...base, strength: 4, cost: 15 });
    cart = addToCart(cart, { ...base, color: '#dc3545', strength: 3, cost: 12 });
    expect(cart).toHaveLength(3);
    expect(cartCount(cart)).toBe(3);
  });

  it('sets a quantity, removes the line at 0 and ignores a negative or non-number', () => {
    const cart = addToCart([], { ...base, cost: 12 });
    const id = cart[0]!.id;
    expect(setQuantity(cart, id, 4)[0]!.quantity).toBe(4);
    expect(setQuantity(cart, id, 0)).toEqual([]);
    expect(setQuantity(cart, id, -1)).toBe(cart);
    expect(setQuantity(cart, id, Number.NaN)).toBe(cart);
    expect(removeFromCart(cart, id)).toEqual([]);
  });
});

describe('at most 100 pieces a line (the checkout refuses more)', () => {
  it('clamps a stored, set or merged quantity to 100', () => {
    expect(normalizeCartItem({ ...base, id: 'a', quantity: 1000 })!.quantity).toBe(100);
    let cart = addToCart([], { ...base, cost: 12, quantity: 60 });
    cart = addToCart(cart, { ...base, cost: 12, quantity: 60 });
    expect(cart[0]!.quantity).toBe(100);
    expect(setQuantity(cart, cart[0]!.id, 250)[0]!.quantity).toBe(100);
  });
});

describe('withUnitPrices', () => {
  it("writes the server's unit price into the lines' cost, and keeps the array when nothing changes", () => {
    const cart = addToCart(addToCart([], { ...base, cost: 12 }), { ...base, strength: 5, cost: 20 });
    const [a, b] = cart;
    const priced = withUnitPrices(cart, new Map([[b!.id, 22.46]]));
    expect(priced.map((i) => i.cost)).toEqual([12, 22.46]);
    expect(priced[0]).toBe(a);
    expect(withUnitPrices(priced, new Map([[b!.id, 22.46]]))).toBe(priced);
  });
});

describe('replaceModel (a rescale reaches the cart)', () => {
  const scaled = {
    id: 'm_big',
    previewImage: '/api/models/m_big/preview.png',
    volumeCm3: 8 * 25.4 ** 3,
    dimensions: { x: 508, y: 508, z: 508 },
  };

  it("points the old model's lines at the new one, keeping their ids, picks and notes", () => {
    let cart = addToCart([], { ...base, strength: 4, notes: 'matte' });
    cart = addToCart(cart, { ...base, filePath: 'm_other' });
    const next = replaceModel(cart, 'm_abc', scaled);
    expect(next[0]).toMatchObject({
      id: cart[0]!.id,
      filePath: 'm_big',
      previewImage: scaled.previewImage,
      dimensions: scaled.dimensions,
      volumeCm3: scaled.volumeCm3,
      strength: 4,
      notes: 'matte',
    });
    expect(next[1]).toBe(cart[1]);
  });

  it('merges a moved line into an identical one, and leaves a cart without the model as it is', () => {
    let cart = addToCart([], { ...base, quantity: 2 });
    cart = addToCart(cart, { ...base, filePath: 'm_big', quantity: 3 });
    const next = replaceModel(cart, 'm_abc', scaled);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ filePath: 'm_big', quantity: 5 });
    expect(replaceModel(next, 'm_abc', scaled)).toBe(next);
  });
});
