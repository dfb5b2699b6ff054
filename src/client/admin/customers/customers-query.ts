import type { AdminCustomerDetail } from '../../../shared/admin-customers.ts';

// The customers list's search and page live in the page's query string (?q=ada&page=2), so back, forward and
// reload keep them; and what a customer's page offers staff, from what the server says of the account.

export type CustomersFilter = { q: string; page: number };

/** The filter a query string asks for; anything unreadable falls back to the first page of everyone. */
export function readCustomersFilter(params: URLSearchParams): CustomersFilter {
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim().slice(0, 200),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string of a filter, defaults left out (so `/admin/customers` is everyone, page 1). */
export function customersParams(f: CustomersFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.page > 1) params.set('page', String(f.page));
  return params;
}

export const customerPath = (id: number | string) =>
  `/api/admin/customers/${encodeURIComponent(String(id))}` as const;

/** What the actions panel shows: which buttons, and why one is missing. */
export type CustomerActions = {
  /** Mark verified and Resend verification mail (an unverified email only). */
  verify: boolean;
  /** 'grant' (Make admin), 'revoke' (Revoke admin…), or null for one's own account (it cannot be revoked). */
  admin: 'grant' | 'revoke' | null;
  /** 'disable' (Disable account…), 'enable', or null for one's own account. */
  account: 'disable' | 'enable' | null;
  /** Open checkouts a disable cancels. */
  openCheckouts: number;
};

export function customerActions(detail: AdminCustomerDetail): CustomerActions {
  const { customer, isYou } = detail;
  return {
    verify: !customer.verified,
    admin: customer.admin ? (isYou ? null : 'revoke') : 'grant',
    account: customer.disabled ? 'enable' : isYou ? null : 'disable',
    openCheckouts: detail.orders.filter((o) => o.status === 'pending').length,
  };
}
