import { describe, expect, it } from 'vitest';
import type { AdminCustomerDetail } from '../../../shared/admin-customers.ts';
import { formatCount } from '../../../shared/format.ts';
import { customerActions, customersParams, readCustomersFilter } from './customers-query.ts';

function detail(
  customer: Partial<AdminCustomerDetail['customer']>,
  extra: Partial<AdminCustomerDetail> = {},
): AdminCustomerDetail {
  return {
    customer: {
      id: 7,
      username: 'ann',
      email: 'ann@example.com',
      verified: true,
      admin: false,
      disabled: false,
      orderCount: 0,
      spentCents: 0,
      joinedAt: '2030-01-01T00:00:00.000Z',
      verifiedAt: '2030-01-01T00:00:00.000Z',
      disabledAt: null,
      openSessions: 1,
      allOrders: 0,
      ...customer,
    },
    orders: [],
    events: [],
    isYou: false,
    ...extra,
  };
}

describe('the customers query string', () => {
  it('reads the search and page, dropping what is not a page', () => {
    expect(readCustomersFilter(new URLSearchParams('q=%20ann%20&page=3'))).toEqual({ q: 'ann', page: 3 });
    for (const page of ['0', '-1', '1.5', 'x', '']) {
      expect(readCustomersFilter(new URLSearchParams(`page=${page}`)).page, page).toBe(1);
    }
    expect(readCustomersFilter(new URLSearchParams(`q=${'a'.repeat(300)}`)).q).toHaveLength(200);
  });

  it('leaves the defaults out', () => {
    expect(customersParams({ q: '', page: 1 }).toString()).toBe('');
    expect(customersParams({ q: ' 50% ', page: 2 }).toString()).toBe('q=50%25&page=2');
  });
});

describe('the actions on a customer', () => {
  it('offers verification only to an unverified email', () => {
    expect(customerActions(detail({ verified: false })).verify).toBe(true);
    expect(customerActions(detail({ verified: true })).verify).toBe(false);
  });

  it('offers to grant or revoke admin access, but never to revoke your own', () => {
    expect(customerActions(detail({ admin: false })).admin).toBe('grant');
    expect(customerActions(detail({ admin: true })).admin).toBe('revoke');
    expect(customerActions(detail({ admin: true }, { isYou: true })).admin).toBeNull();
  });

  it('offers to disable or enable the account, never to disable your own, and counts the open checkouts', () => {
    const pending = { createdAt: '', totalCents: 1, refundedCents: 0, currency: 'usd', testMode: true };
    const d = detail(
      {},
      {
        orders: [
          { id: 1, status: 'pending', ...pending },
          { id: 2, status: 'paid', ...pending },
          { id: 3, status: 'pending', ...pending },
        ],
      },
    );
    expect(customerActions(d)).toMatchObject({ account: 'disable', openCheckouts: 2 });
    expect(customerActions(detail({ disabled: true })).account).toBe('enable');
    expect(customerActions(detail({}, { isYou: true })).account).toBeNull();
  });

  it('counts in words', () => {
    expect(formatCount(1, 'session')).toBe('1 session');
    expect(formatCount(0, 'session')).toBe('0 sessions');
  });
});
