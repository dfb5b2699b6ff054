import { Suspense, useCallback, useEffect, useState } from 'react';
import { carrierName } from '../../shared/carriers.ts';
import { colorName, colorSwatch, strengthLabel } from '../../shared/catalog.ts';
import { formatDate, formatDimensions, formatMoney } from '../../shared/format.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { LazyViewerModal } from '../viewer/lazy-viewer.ts';
import { viewMeshUrl } from '../viewer/view-url.ts';
import { OrderAgain } from './OrderAgain.tsx';
import { OrderCosts, OrderDates, PendingOrderActions, StatusBadge, TestOrderMark } from './OrderParts.tsx';
import { fetchOrders, type OrderItemView, type OrderView } from './order-api.ts';

type Viewing = { url: string; fileName: string; color: string; scale: number };

// Not imported from shared/address.ts: that module's schema would bring zod into this page's chunk.
const COUNTRY_NAMES: Record<string, string> = { US: 'United States', CA: 'Canada' };

/** What a line costs: the server's line total (after any quantity discount) when it sent one. */
const lineTotalOf = (item: OrderItemView) =>
  typeof item.line_total === 'number' ? item.line_total : item.cost * item.quantity;

/** The tracking number of a shipped order, with its carrier, linked to the carrier's tracking page. */
function Tracking({ order }: { order: OrderView }) {
  const carrier = carrierName(order.carrier);
  return (
    <dd className="tracking">
      {carrier && <span className="carrier">{carrier} </span>}
      {order.tracking_url ? (
        <a href={order.tracking_url} target="_blank" rel="noopener">
          {order.tracking_number}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : (
        order.tracking_number
      )}
    </dd>
  );
}

/** Money sent back: each refund and its date. */
function Refunds({ order }: { order: OrderView }) {
  const refunds = order.refunds ?? [];
  if (refunds.length === 0) return null;
  return (
    <ul className="order-refunds" aria-label="Refunds">
      {refunds.map((r, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: refunds are listed oldest first and never reorder.
        <li key={n}>
          Refunded {formatMoney(r.amount)} on {formatDate(r.created_at)}
        </li>
      ))}
    </ul>
  );
}

/** What the shop wrote to the customer about this order, oldest first (plain text). */
function ShopNotes({ order }: { order: OrderView }) {
  const notes = order.notes ?? [];
  if (notes.length === 0) return null;
  return (
    <ul className="shop-notes" aria-label="Messages from the shop">
      {notes.map((note, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notes are listed oldest first and never reorder.
        <li key={n} className="shop-note">
          <p className="shop-note-head">
            <strong>Message from the shop</strong>{' '}
            <time dateTime={note.created_at}>{formatDate(note.created_at)}</time>
          </p>
          <p className="shop-note-text">{note.text}</p>
        </li>
      ))}
    </ul>
  );
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
          <img
            src={previewInColor(item.preview_image_url, item.color)}
            alt={`Preview of ${item.file_name}`}
            width="96"
            height="96"
          />
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
        {item.dimensions && (
          <p className="meta">
            Size: <span data-testid="dimensions">{formatDimensions(item.dimensions)}</span>
          </p>
        )}
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
                // The size ordered: a model rescaled from inches shares its original's view mesh.
                scale: item.scale || 1,
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

function OrderCard({
  order,
  onView,
  onChange,
  onStale,
}: {
  order: OrderView;
  onView: (v: Viewing) => void;
  onChange: (order: OrderView) => void;
  onStale: () => void;
}) {
  const refunded = order.amount_refunded ?? 0;
  return (
    <li className="card order-card">
      <header className="order-head">
        <h2>Order #{order.id}</h2>
        <span className="order-marks">
          {order.test_mode && <TestOrderMark />}
          <StatusBadge status={order.status} />
        </span>
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
        <OrderCosts order={order} />
        <div>
          <dt>Total</dt>
          <dd>{formatMoney(order.total_amount, order.currency)}</dd>
        </div>
        {refunded > 0 && (
          <div>
            <dt>Refunded</dt>
            <dd data-testid="refunded">{formatMoney(refunded, order.currency)}</dd>
          </div>
        )}
        <OrderDates order={order} />
        {order.status === 'shipped' && order.tracking_number && (
          <div>
            <dt>Tracking number</dt>
            <Tracking order={order} />
          </div>
        )}
      </dl>
      <PendingOrderActions
        order={order}
        cancelLabel="Cancel order"
        onCancelled={(status) => onChange({ ...order, status, can_cancel: false, payment_url: null })}
        onStale={onStale}
      />
      <OrderAgain orderId={order.id} />
      <Refunds order={order} />
      <ShopNotes order={order} />
      <Address order={order} />
      {order.items.length === 0 ? (
        <p className="empty">{MSG.ordersNoItems}</p>
      ) : (
        <ul className="order-items">
          {order.items.map((item) => (
            <Item key={item.item_id} item={item} onView={onView} />
          ))}
        </ul>
      )}
    </li>
  );
}

export default function OrdersPage() {
  useDocumentTitle('My Orders');
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  const [error, setError] = useState('');
  const [viewing, setViewing] = useState<Viewing | null>(null);
  const [reads, setReads] = useState(0);
  const readAgain = useCallback(() => setReads((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` reads the orders again (an order moved).
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      try {
        const outcome = await fetchOrders(controller.signal);
        if (controller.signal.aborted) return;
        if (outcome.ok) setOrders(outcome.orders);
        else setError(outcome.error);
      } catch (err) {
        if (!controller.signal.aborted) setError(err instanceof Error ? err.message : MSG.network);
      }
    })();
    return () => controller.abort();
  }, [reads]);

  const replace = useCallback(
    (next: OrderView) => setOrders((list) => list?.map((o) => (o.id === next.id ? next : o)) ?? list),
    [],
  );

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
            <OrderCard
              key={order.id}
              order={order}
              onView={setViewing}
              onChange={replace}
              onStale={readAgain}
            />
          ))}
        </ol>
      )}
      {viewing && (
        <Suspense fallback={null}>
          <LazyViewerModal {...viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </section>
  );
}
