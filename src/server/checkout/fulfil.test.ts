import { describe, expect, it } from 'vitest';
import type { Order } from '../db/schema.ts';
import { checkPaidParts, decide } from './fulfil.ts';
import type { SessionState } from './payment-provider.ts';

// What a session says about an order, wherever the order stands (docs/security.md 37-39, promise 6).

const order = (status: string, overrides: Partial<Order> = {}) =>
  ({
    id: 1,
    status,
    totalCents: 2500,
    subtotalCents: 2500,
    shippingCents: 0,
    taxCents: 0,
    shippingOffers: null,
    currency: 'usd',
    amountPaidCents: null,
    ...overrides,
  }) as Order;
const session = (overrides: Partial<SessionState> = {}): SessionState => ({
  id: 'cs_1',
  status: 'complete',
  paymentStatus: 'paid',
  amountTotalCents: 2500,
  amountSubtotalCents: 2500,
  shippingCents: 0,
  shippingMethodId: null,
  taxCents: 0,
  taxLines: [],
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
    expect(decide(order('pending'), session())).toMatchObject({
      kind: 'move',
      to: 'paid',
      note: 'payment received',
    });
    expect(decide(order('pending'), session({ currency: 'USD' })).kind).toBe('move');
    expect(
      decide(order('pending'), session({ amountTotalCents: 2499, amountSubtotalCents: 2499 })).kind,
    ).toBe('flag');
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

describe('checkPaidParts', () => {
  // An order of $50.00 of items shipped to the US: Standard $6.95 (preselected) or Expedited $19.95.
  const offer = (id: string, name: string, priceCents: number, min: number, max: number) => ({
    id,
    name,
    priceCents,
    listPriceCents: priceCents,
    freeFromCents: null,
    transitDays: { min, max },
    shipBy: '2026-12-01',
    arrivesFrom: '2026-12-04',
    arrivesBy: '2026-12-08',
  });
  const us = order('pending', {
    subtotalCents: 5000,
    shippingCents: 695,
    totalCents: 5695,
    shippingOffers: [
      offer('us-standard', 'US Standard', 695, 3, 5),
      offer('us-expedited', 'US Expedited', 1995, 1, 2),
    ],
  });
  const paidWith = (
    methodId: string | null,
    shipping: number,
    tax = 0,
    overrides: Partial<SessionState> = {},
  ) =>
    session({
      amountSubtotalCents: 5000,
      shippingCents: shipping,
      shippingMethodId: methodId,
      taxCents: tax,
      amountTotalCents: 5000 + shipping + tax,
      ...overrides,
    });

  it('takes the method the customer chose at its offered price, and the tax the provider computed', () => {
    const taxLines = [{ amountCents: 385, label: 'Sales Tax 5.5 % (WI)' }];
    const check = checkPaidParts(us, paidWith('us-expedited', 1995, 385, { taxLines }));
    expect(check).toEqual({
      ok: true,
      parts: {
        shippingCents: 1995,
        shippingRate: {
          id: 'us-expedited',
          name: 'US Expedited',
          priceCents: 1995,
          transitDays: { min: 1, max: 2 },
        },
        taxCents: 385,
        taxLines,
        totalCents: 7380,
      },
    });
    expect(decide(us, paidWith('us-standard', 695)).kind).toBe('move');
  });

  it('flags a payment whose parts are not what was offered, even when the total adds up', () => {
    // Items changed: the same total with cheaper items and dearer shipping.
    expect(checkPaidParts(us, paidWith('us-standard', 695, 0, { amountSubtotalCents: 4000 })).ok).toBe(false);
    // Expedited at Standard's price.
    expect(checkPaidParts(us, paidWith('us-expedited', 695)).ok).toBe(false);
    // A method of the other country, or none at all.
    expect(checkPaidParts(us, paidWith('ca-standard', 1495)).ok).toBe(false);
    // Parts that do not add up to what was paid.
    expect(checkPaidParts(us, paidWith('us-standard', 695, 0, { amountTotalCents: 5000 })).ok).toBe(false);
    expect(checkPaidParts(us, paidWith('us-standard', 695, -10)).ok).toBe(false);
    const flagged = decide(us, paidWith('us-expedited', 695));
    expect(flagged).toMatchObject({ kind: 'flag', flag: 'amount_mismatch' });
    expect(flagged.kind === 'flag' && flagged.details).toContain('US Expedited offered at 1995');
  });

  it('finds the method by its price when the session did not say which (only when one offer has that price)', () => {
    expect(checkPaidParts(us, paidWith(null, 1995)).ok).toBe(true);
    expect(checkPaidParts(us, paidWith(null, 500)).ok).toBe(false);
  });

  it('takes free shipping for an order from before shipping methods, and nothing else', () => {
    expect(checkPaidParts(order('pending'), session()).ok).toBe(true);
    expect(checkPaidParts(order('pending'), session({ shippingCents: 500, amountTotalCents: 3000 })).ok).toBe(
      false,
    );
  });
});
