import { describe, expect, it } from 'vitest';
import type { Order } from '../db/schema.ts';
import { decide } from './fulfil.ts';
import type { SessionState } from './payment-provider.ts';

// What a session says about an order, wherever the order stands (docs/security.md 37-39, promise 6).

const order = (status: string, overrides: Partial<Order> = {}) =>
  ({ id: 1, status, totalCents: 2500, currency: 'usd', amountPaidCents: null, ...overrides }) as Order;
const session = (overrides: Partial<SessionState> = {}): SessionState => ({
  id: 'cs_1',
  status: 'complete',
  paymentStatus: 'paid',
  amountTotalCents: 2500,
  currency: 'usd',
  paymentIntentId: 'pi_1',
  paymentIntentStatus: 'succeeded',
  chargeId: 'ch_1',
  shipping: null,
  rawShipping: null,
  orderId: 1,
  ...overrides,
});

describe('decide', () => {
  it('pays a pending order only for its exact amount and currency', () => {
    expect(decide(order('pending'), session())).toEqual({
      kind: 'move',
      to: 'paid',
      note: 'payment received',
    });
    expect(decide(order('pending'), session({ currency: 'USD' })).kind).toBe('move');
    expect(decide(order('pending'), session({ amountTotalCents: 2499 })).kind).toBe('flag');
    expect(decide(order('pending'), session({ currency: 'cad' })).kind).toBe('flag');
    expect(decide(order('pending'), session({ amountTotalCents: null })).kind).toBe('flag');
  });

  it('leaves a pending order pending while the session is open or complete but unpaid', () => {
    expect(decide(order('pending'), session({ status: 'open', paymentStatus: 'unpaid' }))).toEqual({
      kind: 'none',
    });
    expect(
      decide(
        order('pending'),
        session({ paymentStatus: 'unpaid', paymentIntentStatus: 'processing' }),
        'checkout.session.completed',
      ),
    ).toEqual({
      kind: 'none',
    });
  });

  it('fails a complete, unpaid session whose payment will not be made any more (no event needed)', () => {
    for (const intent of ['requires_payment_method', 'canceled']) {
      expect(
        decide(order('pending'), session({ paymentStatus: 'unpaid', paymentIntentStatus: intent })),
      ).toMatchObject({ kind: 'move', to: 'failed' });
    }
    // Still under way: wait.
    expect(
      decide(order('pending'), session({ paymentStatus: 'unpaid', paymentIntentStatus: 'processing' })),
    ).toEqual({ kind: 'none' });
  });

  it('fails an async payment that failed, and cancels an expired session', () => {
    const unpaid = session({ paymentStatus: 'unpaid' });
    expect(decide(order('pending'), unpaid, 'checkout.session.async_payment_failed')).toMatchObject({
      to: 'failed',
    });
    expect(decide(order('pending'), session({ status: 'expired', paymentStatus: 'unpaid' }))).toMatchObject({
      to: 'cancelled',
    });
  });

  it('never moves an order back: expired or failed after paid changes nothing', () => {
    for (const status of ['paid', 'queued', 'printing', 'shipped']) {
      expect(decide(order(status), session({ status: 'expired', paymentStatus: 'unpaid' }))).toEqual({
        kind: 'none',
      });
      expect(
        decide(order(status), session({ paymentStatus: 'unpaid' }), 'checkout.session.async_payment_failed'),
      ).toEqual({
        kind: 'none',
      });
      expect(decide(order(status), session())).toEqual({ kind: 'none' });
    }
  });

  it('flags money taken for an order that was failed or cancelled first (a refund is due)', () => {
    expect(decide(order('cancelled'), session()).kind).toBe('flag');
    expect(decide(order('failed'), session()).kind).toBe('flag');
    // Flagged once: the payment is on record, so asking again changes nothing.
    expect(decide(order('cancelled', { amountPaidCents: 2500 }), session())).toEqual({ kind: 'none' });
  });
});
