import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ADMIN_TABS, type AdminOrderList, type AdminOrderRow } from '../../shared/admin.ts';
import { statusLabel } from '../../shared/catalog.ts';
import { formatCents } from '../../shared/format.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { changeOrder, load, orderPath } from './admin-api.ts';
import { formatDateTime, formatShortDate } from './admin-format.ts';
import { FlagMarker, ShipBy, StatusBadge, TestMarker } from './admin-ui.tsx';
import {
  type BoardFilters,
  csvQuery,
  filtersToParams,
  listQuery,
  PAGE_SIZE,
  readFilters,
  TAB_LABELS,
  tabCount,
} from './board-query.ts';
import { nextStatusOf } from './next-status.ts';

type BulkLine = { orderId: number; ok: boolean; text: string };

/** /admin: the orders board (tabs with counts, search, dates, pages, bulk actions, CSV). */
export default function OrdersBoard() {
  useDocumentTitle('Admin Panel');
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const filters = readFilters(params);
  const key = listQuery(filters);
  const [list, setList] = useState<AdminOrderList | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [search, setSearch] = useState(filters.q);
  const [bulk, setBulk] = useState<{ running: string; lines: BulkLine[] } | null>(null);

  // Back and forward change the query: the search box follows.
  useEffect(() => setSearch(filters.q), [filters.q]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` asks for the same page again.
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load<AdminOrderList>(`/api/admin/orders?${key}`, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setLoading(false);
      if (result.ok) {
        setList(result.data);
        setError('');
      } else {
        setError(result.error);
      }
    });
    return () => controller.abort();
  }, [key, reload]);

  // A new filter or page is a new list: nothing stays selected out of sight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the query changes.
  useEffect(() => setSelected(new Set()), [key]);

  const update = (patch: Partial<BoardFilters>) =>
    setParams(filtersToParams({ ...filters, page: 1, ...patch }));
  const linkTo = (patch: Partial<BoardFilters>) => {
    const search = filtersToParams({ ...filters, page: 1, ...patch }).toString();
    return search ? `?${search}` : location.pathname;
  };

  const rows = list?.orders ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)));
  const chosen = rows.filter((r) => selected.has(r.id));
  const pages = list ? Math.max(1, Math.ceil(list.total / (list.pageSize || PAGE_SIZE))) : 1;
  const filtered = filters.q || filters.from || filters.to;

  async function moveSelected() {
    const lines: BulkLine[] = [];
    let n = 0;
    for (const row of chosen) {
      n += 1;
      setBulk({ running: `Moving ${n} of ${chosen.length}…`, lines: [...lines] });
      lines.push(await moveOne(row));
    }
    setBulk({ running: '', lines });
    setSelected(new Set());
    setReload((r) => r + 1);
  }

  function onSearch(e: FormEvent) {
    e.preventDefault();
    update({ q: search });
  }

  const boardState = `${location.pathname}${location.search}`;

  return (
    <div className="admin-board">
      <div className="admin-title-row">
        <h1 id="admin-title">Admin Panel</h1>
        <a className="button" href={`/api/admin/orders.csv?${csvQuery(filters)}`} download>
          Export CSV
        </a>
      </div>
      <h2 className="visually-hidden">Orders</h2>

      <nav className="admin-tabs" aria-label="Orders by status">
        <ul>
          {ADMIN_TABS.map((tab) => (
            <li key={tab}>
              <Link
                to={linkTo({ tab })}
                className={`admin-tab tab-${tab}${list && tab === 'review' && list.counts.flagged > 0 ? ' has-items' : ''}`}
                aria-current={filters.tab === tab ? 'page' : undefined}
              >
                {TAB_LABELS[tab]}{' '}
                <span className="tab-count" data-testid={`count-${tab}`}>
                  {list ? tabCount(tab, list.counts) : '…'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="admin-filters">
        <search className="admin-search">
          <form onSubmit={onSearch}>
            <label htmlFor="order-search">Search</label>
            <input
              id="order-search"
              type="search"
              value={search}
              maxLength={200}
              placeholder="Order number, customer, email or file"
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="button button-small">
              Search
            </button>
          </form>
        </search>
        <div className="admin-dates">
          <label>
            From <input type="date" value={filters.from} onChange={(e) => update({ from: e.target.value })} />
          </label>
          <label>
            To <input type="date" value={filters.to} onChange={(e) => update({ to: e.target.value })} />
          </label>
          {filtered && (
            <Link className="button button-small" to={linkTo({ q: '', from: '', to: '' })}>
              Clear filters
            </Link>
          )}
        </div>
      </div>

      <fieldset className="admin-bulk">
        <legend className="visually-hidden">Selected orders</legend>
        <span className="bulk-count">
          {chosen.length === 0 ? 'Select orders to act on several at once.' : `${chosen.length} selected`}
        </span>
        <button
          type="button"
          className="button button-small"
          disabled={chosen.length === 0 || !!bulk?.running}
          onClick={moveSelected}
        >
          {bulk?.running ? 'Saving…' : 'Move to next status'}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={chosen.length === 0}
          onClick={() =>
            navigate(`/admin/tickets?ids=${chosen.map((r) => r.id).join(',')}`, {
              state: { back: boardState },
            })
          }
        >
          Print job tickets
        </button>
      </fieldset>
      {bulk?.running && (
        <p className="loading" role="status">
          {bulk.running}
        </p>
      )}
      {bulk && !bulk.running && bulk.lines.length > 0 && (
        <Alert kind={bulk.lines.every((l) => l.ok) ? 'success' : 'info'}>
          <ul className="bulk-results">
            {bulk.lines.map((l) => (
              <li key={l.orderId} className={l.ok ? 'ok' : 'not-ok'}>
                {l.text}
              </li>
            ))}
          </ul>
        </Alert>
      )}

      {error && <Alert kind="error">{error}</Alert>}
      {!list && !error ? (
        <p className="loading" role="status">
          Loading orders…
        </p>
      ) : list && rows.length === 0 ? (
        <p className="empty">No orders match these filters.</p>
      ) : list ? (
        <div className="admin-table-wrap" aria-busy={loading}>
          <table className="admin-table orders-table">
            <caption className="visually-hidden">
              {TAB_LABELS[filters.tab]} orders, newest first, page {filters.page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="col-check">
                  <input
                    type="checkbox"
                    checked={allSelected}
                    onChange={toggleAll}
                    aria-label="Select every order on this page"
                  />
                </th>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Customer</th>
                <th scope="col" className="num">
                  Items
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">Status</th>
                <th scope="col">Ship by</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row
                  key={row.id}
                  row={row}
                  checked={selected.has(row.id)}
                  onToggle={() => toggle(row.id)}
                  boardState={boardState}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {list && pages > 1 && (
        <nav className="admin-pages" aria-label="Pages">
          {filters.page > 1 ? (
            <Link className="button button-small" to={linkTo({ page: filters.page - 1 })}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span>
            Page {filters.page} of {pages} ({list.total} orders)
          </span>
          {filters.page < pages ? (
            <Link className="button button-small" to={linkTo({ page: filters.page + 1 })}>
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

function Row({
  row,
  checked,
  onToggle,
  boardState,
}: {
  row: AdminOrderRow;
  checked: boolean;
  onToggle: () => void;
  boardState: string;
}) {
  return (
    <tr className={row.openFlags > 0 ? 'is-flagged' : undefined} data-order-id={row.id}>
      <td className="col-check">
        <input type="checkbox" checked={checked} onChange={onToggle} aria-label={`Select order #${row.id}`} />
      </td>
      <td className="col-order">
        <Link to={`/admin/orders/${row.id}`} state={{ back: boardState }} className="order-link">
          #{row.id}
        </Link>
        <span className="row-markers">
          {row.openFlags > 0 && <FlagMarker count={row.openFlags} />}
          {row.testMode && <TestMarker />}
        </span>
      </td>
      <td>
        <time dateTime={row.createdAt} title={formatDateTime(row.createdAt)}>
          {formatShortDate(row.createdAt)}
        </time>
      </td>
      <td className="col-customer">
        <span className="customer-name">{row.customerName}</span>
        <span className="customer-sub" title={row.email || row.username}>
          {row.email || row.username}
        </span>
      </td>
      <td className="num">{row.itemCount}</td>
      <td className="num">{formatCents(row.totalCents)}</td>
      <td>
        <StatusBadge status={row.status} />
      </td>
      <td>
        <ShipBy shipBy={row.status === 'shipped' ? null : row.shipBy} late={row.late} />
      </td>
    </tr>
  );
}

/** One order of the bulk move: its next step, except shipping, which needs a carrier and number. */
async function moveOne(row: AdminOrderRow): Promise<BulkLine> {
  const next = nextStatusOf(row.status);
  if (!next)
    return {
      orderId: row.id,
      ok: false,
      text: `#${row.id}: skipped, ${statusLabel(row.status)} has no next step.`,
    };
  if (next === 'shipped')
    return {
      orderId: row.id,
      ok: false,
      text: `#${row.id}: skipped, shipping needs a carrier and tracking number: open the order to ship it.`,
    };
  const result = await changeOrder(`${orderPath(row.id)}/status`, { status: next, notify: true });
  return result.ok
    ? { orderId: row.id, ok: true, text: `#${row.id}: moved to ${statusLabel(result.data.status)}.` }
    : { orderId: row.id, ok: false, text: `#${row.id}: ${result.error}` };
}
