import { ADMIN_TABS, type AdminOrderCounts, type AdminTab } from '../../shared/admin.ts';
import type { OrderStatus } from '../../shared/catalog.ts';

// The board's filters live in the page's query string (?tab=paid&q=ada&from=2026-01-01&to=&page=2), so back,
// forward and reload keep them; these turn them into the calls' queries.

export type BoardFilters = { tab: AdminTab; q: string; from: string; to: string; page: number };

export const DEFAULT_FILTERS: BoardFilters = { tab: 'all', q: '', from: '', to: '', page: 1 };
export const PAGE_SIZE = 25;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const TAB_LABELS: Record<AdminTab, string> = {
  review: 'Needs review',
  all: 'All',
  paid: 'Paid',
  queued: 'Queued',
  printing: 'Printing',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
  pending: 'Pending',
  failed: 'Failed',
};

export function isTab(value: string | null): value is AdminTab {
  return (ADMIN_TABS as readonly string[]).includes(value ?? '');
}

/** The filters a query string asks for; anything unreadable falls back to the default. */
export function readFilters(params: URLSearchParams): BoardFilters {
  const tab = params.get('tab');
  const page = Number(params.get('page'));
  const day = (name: string) => {
    const v = params.get(name) ?? '';
    return DAY.test(v) ? v : '';
  };
  return {
    tab: isTab(tab) ? tab : DEFAULT_FILTERS.tab,
    q: (params.get('q') ?? '').slice(0, 200),
    from: day('from'),
    to: day('to'),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The page's own query string for these filters: defaults left out, so `/admin` is the plain board. */
export function filtersToParams(f: BoardFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.tab !== DEFAULT_FILTERS.tab) params.set('tab', f.tab);
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  if (f.page > 1) params.set('page', String(f.page));
  return params;
}

/** The status and flagged filter of a tab. */
function tabQuery(tab: AdminTab): { status?: OrderStatus; flagged?: '1' } {
  if (tab === 'review') return { flagged: '1' };
  if (tab === 'all') return {};
  return { status: tab };
}

function query(f: BoardFilters, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  const { status, flagged } = tabQuery(f.tab);
  if (status) params.set('status', status);
  if (flagged) params.set('flagged', flagged);
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}

/** GET /api/admin/orders?... for the board's page. */
export function listQuery(f: BoardFilters): string {
  return query(f, { page: String(f.page), pageSize: String(PAGE_SIZE) });
}

/** GET /api/admin/orders.csv?... : every order the filters match, all pages. */
export function csvQuery(f: BoardFilters): string {
  return query(f, {});
}

/** A tab's count from the list's counts. */
export function tabCount(tab: AdminTab, counts: AdminOrderCounts): number {
  return tab === 'review' ? counts.flagged : counts[tab];
}
