import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import {
  type AdminCustomerDetail,
  accountActionLabel,
  CUSTOMER_ORDERS_SHOWN,
} from '../../../shared/admin-customers.ts';
import { formatCents, formatCount } from '../../../shared/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { load } from '../admin-api.ts';
import { formatDateTime, formatShortDate } from '../admin-format.ts';
import { Panel, StatusBadge, TestMarker } from '../admin-ui.tsx';
import { CustomerActionsPanel } from './CustomerActions.tsx';
import { customerPath } from './customers-query.ts';
import './customers.css';

/** Back to the list the admin came from (its search and page), else the whole list. */
function useBackToList(): string {
  const state = useLocation().state as { back?: unknown } | null;
  return typeof state?.back === 'string' && state.back.startsWith('/admin/customers')
    ? state.back
    : '/admin/customers';
}

/** /admin/customers/:id: one account, its orders and history, and what staff may change on it. */
export default function CustomerPage() {
  const { id = '' } = useParams();
  const back = useBackToList();
  const [detail, setDetail] = useState<AdminCustomerDetail | null>(null);
  const [error, setError] = useState('');
  useDocumentTitle(`${detail?.customer.username ?? 'Customer'} · Admin`);

  useEffect(() => {
    const controller = new AbortController();
    setDetail(null);
    setError('');
    if (!/^\d{1,12}$/.test(id)) {
      setError('There is no such customer.');
      return;
    }
    load<AdminCustomerDetail>(customerPath(id), controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) setDetail(result.data);
      else setError(result.error);
    });
    return () => controller.abort();
  }, [id]);

  return (
    <article className="admin-customer" aria-labelledby="customer-title">
      <p className="admin-back">
        <Link to={back}>← Back to the customers</Link>
      </p>
      <div className="admin-title-row">
        <h1 id="customer-title">{detail ? detail.customer.username : `Customer #${id}`}</h1>
        {detail && <AccountMarkers detail={detail} />}
      </div>
      {error && <Alert kind="error">{error}</Alert>}
      {!detail && !error && (
        <p className="loading" role="status">
          Loading the customer…
        </p>
      )}
      {detail && (
        <div className="customer-layout">
          <FactsPanel detail={detail} />
          <div className="customer-side">
            <CustomerActionsPanel detail={detail} onChange={setDetail} />
            <HistoryPanel detail={detail} />
          </div>
          <OrdersPanel detail={detail} />
        </div>
      )}
    </article>
  );
}

function AccountMarkers({ detail }: { detail: AdminCustomerDetail }) {
  const c = detail.customer;
  return (
    <div className="customer-markers">
      {detail.isYou && <span className="admin-marker marker-you">You</span>}
      {c.admin && <span className="admin-marker marker-admin">Admin</span>}
      {c.disabled && <span className="admin-marker marker-disabled">Disabled</span>}
      {!c.verified && <span className="admin-marker marker-warn">Email not verified</span>}
    </div>
  );
}

function FactsPanel({ detail }: { detail: AdminCustomerDetail }) {
  const c = detail.customer;
  return (
    <Panel title="Account" id="account-title" className="customer-facts-panel">
      <dl className="admin-facts customer-facts">
        <div>
          <dt>Username</dt>
          <dd>{c.username}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${c.email}`}>{c.email}</a>
          </dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDateTime(c.joinedAt)}</dd>
        </div>
        <div>
          <dt>Verified</dt>
          <dd>{c.verifiedAt ? `Yes, ${formatDateTime(c.verifiedAt)}` : 'Not yet'}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>{c.admin ? 'Admin' : 'Customer'}</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd className={c.disabledAt ? 'is-disabled-text' : undefined}>
            {c.disabledAt ? `Disabled since ${formatDateTime(c.disabledAt)}` : 'Enabled'}
          </dd>
        </div>
        <div>
          <dt>Logged in</dt>
          <dd>{c.openSessions === 0 ? 'Nowhere now' : formatCount(c.openSessions, 'session')}</dd>
        </div>
        <div>
          <dt>Orders</dt>
          <dd>
            {c.orderCount} <span className="muted">(paid, queued, printing or shipped)</span>
          </dd>
        </div>
        <div>
          <dt>Total spent</dt>
          <dd>
            {formatCents(c.spentCents)} <span className="muted">(less refunds)</span>
          </dd>
        </div>
      </dl>
    </Panel>
  );
}

function OrdersPanel({ detail }: { detail: AdminCustomerDetail }) {
  const { customer, orders } = detail;
  const back = `/admin/customers/${customer.id}`;
  return (
    <Panel title="Orders" id="orders-title" className="customer-orders-panel">
      {orders.length === 0 ? (
        <p className="empty">No orders yet.</p>
      ) : (
        <>
          <div className="customer-orders-wrap">
            <table className="admin-table customer-orders">
              <caption className="visually-hidden">{customer.username}'s orders, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Date</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {orders.map((o) => (
                  <tr key={o.id} data-order-id={o.id}>
                    <td>
                      <Link to={`/admin/orders/${o.id}`} state={{ back }} className="order-link">
                        #{o.id}
                      </Link>{' '}
                      {o.testMode && <TestMarker />}
                    </td>
                    <td>
                      <time dateTime={o.createdAt} title={formatDateTime(o.createdAt)}>
                        {formatShortDate(o.createdAt)}
                      </time>
                    </td>
                    <td>
                      <StatusBadge status={o.status} />
                    </td>
                    <td className="num">
                      {formatCents(o.totalCents)}
                      {o.refundedCents > 0 && (
                        <span className="refunded">{formatCents(o.refundedCents)} refunded</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {customer.allOrders > orders.length && (
            <p className="muted">
              The newest {CUSTOMER_ORDERS_SHOWN} of {customer.allOrders} orders.{' '}
              <Link to={`/admin?q=${encodeURIComponent(customer.username)}`}>All of them on the board</Link>
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

function HistoryPanel({ detail }: { detail: AdminCustomerDetail }) {
  return (
    <Panel title="Account history" id="history-title" className="customer-history">
      {detail.events.length === 0 ? (
        <p className="empty">Staff have not changed this account.</p>
      ) : (
        <ol className="admin-timeline account-history">
          {detail.events.map((e) => (
            <li key={e.id} className={`timeline-entry account-${e.action}`}>
              <div className="timeline-body">
                <p className="timeline-move">{accountActionLabel(e.action)}</p>
                {e.note && <p className="timeline-text">{e.note}</p>}
                <p className="timeline-meta">
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time> · {e.actorName ?? 'a removed account'}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
