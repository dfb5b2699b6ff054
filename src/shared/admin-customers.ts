import { z } from 'zod';
import { ORDER_STATUSES } from './catalog.ts';

// The back office's customers (docs/api.md "Admin"): one schema for the server's parsing and the panel's
// types. Money is whole cents, times are ISO strings.

/** Customers per page of the list. */
export const CUSTOMERS_PAGE_SIZE = 25;

/** The orders one customer's page lists, newest first (the board, searched by username, has them all). */
export const CUSTOMER_ORDERS_SHOWN = 100;

/** The account history one customer's page lists, newest first. */
export const CUSTOMER_EVENTS_SHOWN = 200;

/** Orders that count as bought: paid onwards, and not ended (cancelled and failed ones do not count). */
export const COUNTED_STATUSES = ['paid', 'queued', 'printing', 'shipped'] as const;

/** GET /api/admin/customers?q=&page= */
export const adminCustomersQuery = z.object({
  q: z.string().trim().max(200, 'The search is too long.').optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AdminCustomersQuery = z.input<typeof adminCustomersQuery>;

export const adminCustomerRow = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  verified: z.boolean(),
  admin: z.boolean(),
  disabled: z.boolean(),
  /** Orders paid, queued, printing or shipped. */
  orderCount: z.number(),
  /** Those orders' totals less what was refunded on them. */
  spentCents: z.number(),
  joinedAt: z.string(),
});
export type AdminCustomerRow = z.infer<typeof adminCustomerRow>;

export const adminCustomerList = z.object({
  customers: z.array(adminCustomerRow),
  /** Accounts matching the search (all pages). */
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminCustomerList = z.infer<typeof adminCustomerList>;

/** What staff did to or with an account; each is one account_events row with who and when. */
export const ACCOUNT_ACTIONS = [
  'verified',
  'verification_sent',
  'admin_granted',
  'admin_revoked',
  'disabled',
  'enabled',
  'file_downloaded',
] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export const ACCOUNT_ACTION_LABELS: Record<AccountAction, string> = {
  verified: 'Email marked verified',
  verification_sent: 'Verification mail sent',
  admin_granted: 'Made an admin',
  admin_revoked: 'Admin access revoked',
  disabled: 'Account disabled',
  enabled: 'Account enabled',
  file_downloaded: 'Model file downloaded by staff',
};

/** An action's label; an action this version does not know is shown as stored. */
export function accountActionLabel(action: string): string {
  return (ACCOUNT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

export const adminAccountEvent = z.object({
  id: z.number(),
  action: z.string(),
  /** The admin who did it (null once their account is gone). */
  actorName: z.string().nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export type AdminAccountEvent = z.infer<typeof adminAccountEvent>;

export const adminCustomerOrder = z.object({
  id: z.number(),
  createdAt: z.string(),
  status: z.enum(ORDER_STATUSES),
  totalCents: z.number(),
  refundedCents: z.number(),
  currency: z.string(),
  /** Paid through the simulator: no money was taken. */
  testMode: z.boolean(),
});
export type AdminCustomerOrder = z.infer<typeof adminCustomerOrder>;

export const adminCustomerDetail = z.object({
  customer: adminCustomerRow.extend({
    verifiedAt: z.string().nullable(),
    disabledAt: z.string().nullable(),
    /** Sessions that are logged in now (ended at once when the account is disabled). */
    openSessions: z.number(),
    /** Orders of every status, all of them (the list below may show only the newest). */
    allOrders: z.number(),
  }),
  /** The newest CUSTOMER_ORDERS_SHOWN orders of any status. */
  orders: z.array(adminCustomerOrder),
  /** What staff did to the account, newest first. */
  events: z.array(adminAccountEvent),
  /** The account is the admin's own: it cannot revoke its admin access or be disabled by them. */
  isYou: z.boolean(),
});
export type AdminCustomerDetail = z.infer<typeof adminCustomerDetail>;

/** POST /api/admin/customers/:id/verify */
export const adminVerifyRequest = z.object({
  value: z.literal(true, { error: 'value must be true: an email cannot be marked unverified.' }),
});

/** POST /api/admin/customers/:id/admin and /disable */
export const adminSwitchRequest = z.object({
  value: z.boolean({ error: 'value must be true or false.' }),
});

/** Every account-changing call: what was done, in a sentence, and the customer as they are now. */
export const adminCustomerChanged = z.object({
  message: z.string(),
  detail: adminCustomerDetail,
});
export type AdminCustomerChanged = z.infer<typeof adminCustomerChanged>;
