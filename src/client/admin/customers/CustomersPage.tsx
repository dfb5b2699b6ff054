import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { AdminCustomerList, AdminCustomerRow } from '../../../shared/admin-customers.ts';
import { formatCents } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { load } from '../admin-api.ts';
import { formatDateTime, formatShortDate } from '../admin-format.ts';
import { type CustomersFilter, customersParams, readCustomersFilter } from './customers-query.ts';
import './customers.css';

/** /admin/customers: every account, newest first, searched by username or email, 25 a page. */
export default function CustomersPage() {
  useDocumentTitle('Customers · Admin');
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filter = readCustomersFilter(params);
  const key = customersParams(filter).toString();
  const [list, setList] = useState<AdminCustomerList | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState(filter.q);

  // Back and forward change the query: the search box follows.
  useEffect(() => setSearch(filter.q), [filter.q]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load<AdminCustomerList>(`/api/admin/customers?${key}`, controller.signal).then((result) => {
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
  }, [key]);

  const linkTo = (patch: Partial<CustomersFilter>) => {
    const query = customersParams({ ...filter, ...patch }).toString();
    return query ? `?${query}` : location.pathname;
  };
  function onSearch(e: FormEvent) {
    e.preventDefault();
    setParams(customersParams({ q: search, page: 1 }));
  }

  const rows = list?.customers ?? [];
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;
  const back = `${location.pathname}${location.search}`;

  return (
    <div className="admin-customers">
      <div className="admin-title-row">
        <h1 id="customers-title">Customers</h1>
        {list && (
          <p className="customers-total muted" aria-live="polite">
            {filter.q
              ? `${list.total} ${list.total === 1 ? 'account matches' : 'accounts match'} “${filter.q}”`
              : `${list.total} ${list.total === 1 ? 'account' : 'accounts'}`}
          </p>
        )}
      </div>

      <div className="admin-filters">
        <search className="admin-search">
          <form onSubmit={onSearch}>
            <label htmlFor="customer-search">Search</label>
            <input
              id="customer-search"
              type="search"
              value={search}
              maxLength={200}
              placeholder="Username or email"
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="button button-small">
              Search
            </button>
          </form>
        </search>
        {filter.q && (
          <Link className="button button-small" to={location.pathname}>
            Clear search
          </Link>
        )}
      </div>
      <p className="customers-note muted">
        Orders: paid, queued, printing or shipped. Total spent: those orders' totals less refunds.
      </p>

      {error && <Alert kind="error">{error}</Alert>}
      {!list && !error ? (
        <p className="loading" role="status">
          Loading customers…
        </p>
      ) : list && rows.length === 0 ? (
        <p className="empty">{filter.q ? 'No account matches this search.' : 'No accounts yet.'}</p>
      ) : list ? (
        <div className="admin-table-wrap" aria-busy={loading}>
          <table className="admin-table customers-table">
            <caption className="visually-hidden">
              Customers, newest first, page {filter.page} of {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Verified</th>
                <th scope="col">Admin</th>
                <th scope="col">Disabled</th>
                <th scope="col" className="num">
                  Orders
                </th>
                <th scope="col" className="num">
                  Total spent
                </th>
                <th scope="col">Joined</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.id} row={row} back={back} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {list && pages > 1 && (
        <nav className="admin-pages" aria-label="Pages">
          {filter.page > 1 ? (
            <Link className="button button-small" to={linkTo({ page: filter.page - 1 })}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span>
            Page {filter.page} of {pages} ({list.total} accounts)
          </span>
          {filter.page < pages ? (
            <Link className="button button-small" to={linkTo({ page: filter.page + 1 })}>
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

function YesNo({
  value,
  yes,
  no = 'No',
  alarm = false,
}: {
  value: boolean;
  yes: string;
  no?: string;
  /** A yes that needs attention (shown in red, and in words). */
  alarm?: boolean;
}) {
  const className = value ? (alarm ? 'yes-no is-yes is-alarm' : 'yes-no is-yes') : 'yes-no';
  return <span className={className}>{value ? yes : no}</span>;
}

function Row({ row, back }: { row: AdminCustomerRow; back: string }) {
  return (
    <tr data-customer-id={row.id} className={row.disabled ? 'is-disabled' : undefined}>
      <td className="col-customer">
        <Link to={`/admin/customers/${row.id}`} state={{ back }} className="customer-link">
          {row.username}
        </Link>
        <span className="customer-sub" title={row.email}>
          {row.email}
        </span>
      </td>
      <td>
        <YesNo value={row.verified} yes="Verified" no="Not verified" />
      </td>
      <td>
        <YesNo value={row.admin} yes="Admin" />
      </td>
      <td>
        <YesNo value={row.disabled} yes="Disabled" alarm />
      </td>
      <td className="num">{row.orderCount}</td>
      <td className="num">{formatCents(row.spentCents)}</td>
      <td>
        <time dateTime={row.joinedAt} title={formatDateTime(row.joinedAt)}>
          {formatShortDate(row.joinedAt)}
        </time>
      </td>
    </tr>
  );
}
