import { lazy, Suspense, useEffect, useState } from 'react';
import { colorName, colorSwatch, statusLabel, strengthLabel } from '../../shared/catalog.ts';
import { formatDate, formatMoney } from '../../shared/format.ts';
import type { OrderItemPayload, OrderPayload } from '../../shared/orders.ts';
import { errorText, getJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { viewMeshUrl } from '../viewer/view-url.ts';

const ViewerModal = lazy(() => import('../viewer/ViewerModal.tsx'));

type Viewing = { url: string; fileName: string; color: string };

/** The order as get_orders.php answers it, read defensively: the checkout adds these fields. */
type OrderItemView = OrderItemPayload & { line_total?: number | null };
type OrderView = Omit<OrderPayload, 'items'> & {
  items: OrderItemView[];
  /** The hosted checkout of a still-pending order. */
  payment_url?: string | null;
  /** YYYY-MM-DD */
  ship_by?: string | null;
};

// Not imported from shared/address.ts: that module's schema would bring zod into this page's chunk.
const COUNTRY_NAMES: Record<string, string> = { US: 'United States', CA: 'Canada' };

const SHIPS_WHEN = new Set(['paid', 'queued', 'printing']);

/** A calendar date 'YYYY-MM-DD' as the customer reads it, without a time zone shifting the day. */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  return formatDate(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** What a line costs: the server's line total (after any quantity discount) when it sent one. */
const lineTotalOf = (item: OrderItemView) =>
  typeof item.line_total === 'number' ? item.line_total : item.cost * item.quantity;

function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-${status || 'unknown'}`}>{statusLabel(status)}</span>;
}

function Address({ order }: { order: OrderView }) {
  if (!order.shipping_name && !order.shipping_line1) return null;
  const region = [order.shipping_state, order.shipping_postal_code].filter(Boolean).join(' ');
  const cityLine = [order.shipping_city, region].filter(Boolean).join(', ');
  const country = order.shipping_country
    ? (COUNTRY_NAMES[order.shipping_country] ?? order.shipping_country)
    : '';
  return (
    <address className="shipping-address">
      <strong>Ship to</strong>
      {[order.shipping_name, order.shipping_line1, order.shipping_line2, cityLine, country]
        .filter(Boolean)
        .map((line, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one address never reorder.
          <span key={n}>{line}</span>
        ))}
    </address>
  );
}

function Item({ item, onView }: { item: OrderItemView; onView: (v: Viewing) => void }) {
  const lineTotal = lineTotalOf(item);
  const modelId = item.unique_file_path;
  const discounted = lineTotal < item.cost * item.quantity - 0.005;
  return (
    <li className="order-item">
      <div className="thumb">
        {item.preview_image_url ? (
          <img src={item.preview_image_url} alt={`Preview of ${item.file_name}`} width="96" height="96" />
        ) : (
          <span className="no-preview">No Preview</span>
        )}
      </div>
      <div className="order-item-body">
        <p className="file-name">{item.file_name}</p>
        <p className="meta">
          Quantity: {item.quantity} · Color:{' '}
          <span className="swatch small" style={{ background: colorSwatch(item.color) }} aria-hidden="true" />{' '}
          {colorName(item.color)} · Strength: {strengthLabel(item.strength)} ({item.strength}/5) · Unit cost:{' '}
          {formatMoney(item.cost)}
        </p>
        {item.notes && <p className="notes">Notes: {item.notes}</p>}
      </div>
      <div className="order-item-side">
        <div className="line-price">
          <p className="line-total">{formatMoney(lineTotal)}</p>
          {discounted && <p className="discount">Includes a quantity discount.</p>}
        </div>
        {modelId && (
          <button
            type="button"
            className="button button-small"
            onClick={() =>
              onView({
                url: viewMeshUrl(modelId),
                fileName: item.file_name,
                color: item.color,
              })
            }
          >
            View 3D Model
          </button>
        )}
      </div>
    </li>
  );
}

export default function OrdersPage() {
  useDocumentTitle('My Orders');
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  const [error, setError] = useState('');
  const [viewing, setViewing] = useState<Viewing | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      try {
        const res = await getJson('/api/get_orders.php', { signal: controller.signal });
        if (!res.ok) {
          const data = await readJson(res);
          setError(errorText(data) ?? MSG.ordersFailed(res.statusText, res.status));
          return;
        }
        const data: unknown = await res.json();
        if (!Array.isArray(data)) {
          setError(MSG.ordersBadData);
          return;
        }
        setOrders(data as OrderView[]);
      } catch (err) {
        if (!controller.signal.aborted) setError(err instanceof Error ? err.message : MSG.network);
      }
    })();
    return () => controller.abort();
  }, []);

  return (
    <section className="page orders-page" aria-labelledby="orders-title">
      <h1 id="orders-title">My Orders</h1>
      {error ? (
        <Alert kind="error">{error}</Alert>
      ) : orders === null ? (
        <p className="loading" role="status">
          {MSG.ordersLoading}
        </p>
      ) : orders.length === 0 ? (
        <p className="empty">{MSG.ordersEmpty}</p>
      ) : (
        <ol className="order-list">
          {orders.map((order) => (
            <li key={order.id} className="card order-card">
              <header className="order-head">
                <h2>Order #{order.id}</h2>
                <StatusBadge status={order.status} />
              </header>
              <dl className="order-facts">
                <div>
                  <dt>Placed</dt>
                  <dd>{formatDate(order.created_at)}</dd>
                </div>
                <div>
                  <dt>Items</dt>
                  <dd>{order.items.reduce((n, i) => n + i.quantity, 0)}</dd>
                </div>
                <div>
                  <dt>Total</dt>
                  <dd>{formatMoney(order.total_amount, order.currency)}</dd>
                </div>
                {order.ship_by && SHIPS_WHEN.has(order.status) && (
                  <div>
                    <dt>Ships by</dt>
                    <dd data-testid="ship-by">{formatDay(order.ship_by)}</dd>
                  </div>
                )}
                {order.status === 'shipped' && order.tracking_number && (
                  <div>
                    <dt>Tracking number</dt>
                    <dd className="tracking">{order.tracking_number}</dd>
                  </div>
                )}
              </dl>
              {order.status === 'pending' && order.payment_url && (
                <p className="order-pay">
                  <a className="button button-primary" href={order.payment_url}>
                    Complete payment
                  </a>{' '}
                  <span className="hint">This order is waiting for its payment.</span>
                </p>
              )}
              <Address order={order} />
              {order.items.length === 0 ? (
                <p className="empty">{MSG.ordersNoItems}</p>
              ) : (
                <ul className="order-items">
                  {order.items.map((item) => (
                    <Item key={item.item_id} item={item} onView={setViewing} />
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {viewing && (
        <Suspense fallback={null}>
          <ViewerModal {...viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </section>
  );
}
