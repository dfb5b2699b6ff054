import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../shared/catalog.ts';
import { canMove, isFinal, movesFrom, nextStep, TransitionError } from './state-machine.ts';

describe('the order state machine', () => {
  it('lets the payment provider move pending on, staff move production on, and nothing move back', () => {
    expect(['paid', 'failed', 'cancelled'].every((to) => canMove('pending', to as never, 'payment'))).toBe(
      true,
    );
    expect(canMove('paid', 'queued', 'staff')).toBe(true);
    expect(canMove('queued', 'printing', 'staff')).toBe(true);
    expect(canMove('printing', 'shipped', 'staff')).toBe(true);
    expect(canMove('paid', 'pending')).toBe(false);
    expect(canMove('paid', 'failed')).toBe(false);
    expect(canMove('shipped', 'cancelled')).toBe(false);
    expect(canMove('cancelled', 'paid')).toBe(false);
    expect(canMove('whatever', 'paid')).toBe(false);
  });

  it('gives each role only its own moves', () => {
    // Staff never touch a pending order; only the provider's word pays one.
    expect(movesFrom('pending', 'staff')).toEqual([]);
    expect(canMove('pending', 'paid', 'staff')).toBe(false);
    expect(canMove('pending', 'paid', 'customer')).toBe(false);
    // A customer may give up their own unpaid order, nothing else.
    expect(movesFrom('pending', 'customer')).toEqual(['cancelled']);
    expect(movesFrom('paid', 'customer')).toEqual([]);
    // No skipping: paid cannot go straight to printing or shipped.
    expect(canMove('paid', 'printing', 'staff')).toBe(false);
    expect(canMove('paid', 'shipped', 'staff')).toBe(false);
    expect(canMove('queued', 'shipped', 'staff')).toBe(false);
    // Cancelling is possible until the parcel leaves.
    for (const from of ['paid', 'queued', 'printing']) expect(canMove(from, 'cancelled', 'staff')).toBe(true);
    expect(canMove('shipped', 'cancelled', 'staff')).toBe(false);
  });

  it('names the next production step and the final statuses', () => {
    expect(nextStep('paid')).toBe('queued');
    expect(nextStep('queued')).toBe('printing');
    expect(nextStep('printing')).toBe('shipped');
    expect(nextStep('shipped')).toBeNull();
    expect(nextStep('pending')).toBeNull();
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['shipped', 'failed', 'cancelled']);
  });

  it('refuses with a sentence staff can act on', () => {
    expect(new TransitionError('paid', 'shipped').message).toBe(
      'An order that is Paid / Processing can only move to Queued for Print (or be cancelled).',
    );
    expect(new TransitionError('pending', 'queued').message).toMatch(/waiting for its payment/);
    expect(new TransitionError('shipped', 'cancelled').message).toMatch(/has shipped/);
    expect(new TransitionError('queued', 'queued').message).toBe('The order is already Queued for Print.');
    expect(new TransitionError('paid', 'shipped').statusCode).toBe(409);
  });
});
