import { describe, expect, it } from 'vitest';
import { withoutPaidLines } from './cart.ts';

const line = (filePath: string, color: string, strength: number, quantity: number) => ({
  id: `${filePath}-${color}-${strength}`,
  filePath,
  color,
  strength,
  quantity,
});

describe('withoutPaidLines', () => {
  it('takes out exactly the pieces an order paid for and leaves every other line', () => {
    const cart = [line('m_a', '#dc3545', 3, 2), line('m_b', 'blue', 5, 1), line('m_a', '#dc3545', 5, 4)];
    const paid = [{ modelId: 'm_a', color: '#dc3545', strength: 3, quantity: 2 }];
    expect(withoutPaidLines(cart, paid)).toEqual([cart[1], cart[2]]);
  });

  it('matches a color by name or hex, and leaves the rest of a line that grew after checking out', () => {
    const cart = [line('m_b', 'blue', 5, 3)];
    expect(withoutPaidLines(cart, [{ modelId: 'm_b', color: '#007bff', strength: 5, quantity: 1 }])).toEqual([
      { ...cart[0], quantity: 2 },
    ]);
  });

  it('answers the same array when nothing was paid for from it (an older order, another strength)', () => {
    const cart = [line('m_a', '#dc3545', 3, 1)];
    expect(withoutPaidLines(cart, [{ modelId: 'm_a', color: '#dc3545', strength: 4, quantity: 1 }])).toBe(
      cart,
    );
    expect(withoutPaidLines(cart, [{ modelId: 'm_x', color: '#dc3545', strength: 3, quantity: 1 }])).toBe(
      cart,
    );
    expect(withoutPaidLines(cart, [{ modelId: null, color: '#dc3545', strength: 3, quantity: 1 }])).toBe(
      cart,
    );
  });
});
