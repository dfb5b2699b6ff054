import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AdminOrderDetail } from '../../shared/admin.ts';
import { carrierName } from '../../shared/carriers.ts';
import { formatCents } from '../../shared/format.ts';
import { formatDayRange } from '../../shared/shipping.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { load, orderPath } from './admin-api.ts';
import { formatDateTime } from './admin-format.ts';
import { AddressLines, FlagMarker, Panel, ShipBy, StatusBadge, TestMarker } from './admin-ui.tsx';
import { useBackLink } from './back-link.ts';
import { FlagsPanel } from './detail/FlagsPanel.tsx';
import { ItemsPanel } from './detail/ItemsPanel.tsx';
import { PaymentPanel } from './detail/PaymentPanel.tsx';
import { StatusPanel } from './detail/StatusPanel.tsx';
import { TimelinePanel } from './detail/TimelinePanel.tsx';

/** /admin/orders/:id: one order, everything staff do to it. */
export default function OrderDetailPage() {
  const { id = '' } = useParams();
  useDocumentTitle(`Order #${id} · Admin`);
  const back = useBackLink();
  const [order, setOrder] = useState<AdminOrderDetail | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    setOrder(null);
    setError('');
    if (!/^\d{1,12}$/.test(id)) {
      setError('There is no such order.');
      return;
    }
    load<AdminOrderDetail>(orderPath(id), controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) setOrder(result.data);
      else setError(result.error);
    });
    return () => controller.abort();
  }, [id]);

  const openFlags = order?.flags.filter((f) => !f.resolvedAt).length ?? 0;

  return (
    <article className="admin-order" aria-labelledby="order-title">
      <p className="admin-back">
        <Link to={back}>← Back to the orders</Link>
      </p>
      <div className="admin-title-row">
        <h1 id="order-title">Order #{id}</h1>
        {order && (
          <div className="order-title-side">
            <StatusBadge status={order.status} />
            {order.testMode && <TestMarker />}
            {openFlags > 0 && <FlagMarker count={openFlags} />}
            <Link
              className="button button-primary"
              to={`/admin/tickets?ids=${order.id}`}
              state={{ back: `/admin/orders/${order.id}` }}
            >
              Print job ticket
            </Link>
          </div>
        )}
      </div>
      {error && <Alert kind="error">{error}</Alert>}
      {!order && !error && (
        <p className="loading" role="status">
          Loading the order…
        </p>
      )}
      {order && <OrderBody order={order} onChange={setOrder} />}
    </article>
  );
}

function OrderBody({
  order,
  onChange,
}: {
  order: AdminOrderDetail;
  onChange: (o: AdminOrderDetail) => void;
}) {
  return (
    <div className="order-layout">
      <div className="order-main">
        {order.flags.some((f) => !f.resolvedAt) && <FlagsPanel order={order} onChange={onChange} />}
        <StatusPanel order={order} onChange={onChange} />
        <ItemsPanel order={order} onChange={onChange} />
      </div>
      <aside className="order-side" aria-label="Customer, shipping and payment">
        <Panel title="Customer" id="customer-title">
          <dl className="admin-facts">
            <div>
              <dt>Name</dt>
              <dd>{order.customer.name || order.shipping.name || '—'}</dd>
            </div>
            <div>
              <dt>Username</dt>
              <dd>{order.customer.username}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>
                <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a>
              </dd>
            </div>
            <div>
              <dt>Placed</dt>
              <dd>{formatDateTime(order.createdAt)}</dd>
            </div>
          </dl>
        </Panel>
        <Panel title="Shipping" id="shipping-title">
          <AddressLines shipping={order.shipping} />
          <dl className="admin-facts">
            <div>
              <dt>Method</dt>
              <dd>{order.shipping.method || 'Free shipping (no method chosen)'}</dd>
            </div>
            {order.shippingCents > 0 && (
              <div>
                <dt>Shipping paid</dt>
                <dd>{formatCents(order.shippingCents)}</dd>
              </div>
            )}
            {order.status !== 'shipped' && order.shipBy && (
              <div>
                <dt>Ship by</dt>
                <dd>
                  <ShipBy shipBy={order.shipBy} late={order.late} />
                </dd>
              </div>
            )}
            {order.arrivesFrom && order.arrivesBy && (
              <div>
                <dt>Expected arrival</dt>
                <dd>{formatDayRange(order.arrivesFrom, order.arrivesBy)} (carrier's estimate)</dd>
              </div>
            )}
            {order.trackingNumber && (
              <div>
                <dt>Tracking</dt>
                <dd>
                  {carrierName(order.carrier)}{' '}
                  {order.trackingUrl ? (
                    <a href={order.trackingUrl} target="_blank" rel="noreferrer noopener">
                      {order.trackingNumber}
                    </a>
                  ) : (
                    order.trackingNumber
                  )}
                </dd>
              </div>
            )}
          </dl>
        </Panel>
        <PaymentPanel order={order} onChange={onChange} />
        {!order.flags.some((f) => !f.resolvedAt) && order.flags.length > 0 && (
          <FlagsPanel order={order} onChange={onChange} />
        )}
      </aside>
      {/* After the customer and payment on a tablet; under the items beside them on a desktop. */}
      <div className="order-timeline">
        <TimelinePanel order={order} onChange={onChange} />
      </div>
    </div>
  );
}
