import { describe, expect, it } from 'vitest';
import { MSG } from './messages.ts';

describe('MSG.itemsInCart (issue #26: "1 items in cart")', () => {
  it('says what the cart icon holds in words, singular for one', () => {
    expect(MSG.itemsInCart(0)).toBe('0 items in cart');
    expect(MSG.itemsInCart(1)).toBe('1 item in cart');
    expect(MSG.itemsInCart(2)).toBe('2 items in cart');
    expect(MSG.itemsInCart(1500)).toBe('1,500 items in cart');
  });
});
