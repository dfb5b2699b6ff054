import { useState } from 'react';
import { statusLabel } from '../../shared/catalog.ts';
import { formatMoney } from '../../shared/format.ts';
import { formatDayRange, formatShipDay } from '../../shared/shipping.ts';
import { Alert } from '../ui/Alert.tsx';
import { CANCEL_ORDER_MSG, canCancel, cancelOrder, type OrderView } from './order-api.ts';

// What My Orders and the payment cancel page both show of an order, so that the two always agree.

export const TEST_ORDER_TEXT = 'Test order: no money was taken';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-${status || 'unknown'}`}>{statusLabel(status)}</span>;
}

/** The mark of an order paid through the shop's test simulator. */
export function TestOrderMark() {
  return <span className="test-order-mark">{TEST_ORDER_TEXT}</span>;
}

type PendingOrder = Pick<OrderView, 'id' | 'status' | 'payment_url' | 'can_cancel'>;

/**
 * A pending order's way forward: 'Complete payment' while it can be paid, and cancelling it (after a
 * confirmation) while the server allows it. `onCancelled` gets the new status; `onStale` asks the page to
 * read the order again (the server refused because it moved meanwhile, e.g. it was just paid).
 */
export function PendingOrderActions({
  order,
  cancelLabel,
  onCancelled,
  onStale,
}: {
  order: PendingOrder;
  cancelLabel: string;
  onCancelled: (status: string) => void;
  onStale: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const pending = order.status === 'pending';
  const payUrl = pending ? order.payment_url : null;
  const cancellable = canCancel(order);

  async function cancel() {
    if (!window.confirm(CANCEL_ORDER_MSG.confirm(order.id))) return;
    setBusy(true);
    setError('');
    const outcome = await cancelOrder(order.id);
    setBusy(false);
    if (outcome.ok) {
      setDone(true);
      onCancelled(outcome.status);
      return;
    }
    setError(outcome.error);
    if (outcome.status === 409 || outcome.status === 404) onStale();
  }

  if (!payUrl && !cancellable && !done && !error) return null;
  return (
    <div className="order-actions">
      {(payUrl || cancellable) && (
        <p className="order-pay">
          {payUrl && (
            <a className="button button-primary" href={payUrl}>
              Complete payment
            </a>
          )}
          {cancellable && (
            <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={cancel}>
              {busy ? CANCEL_ORDER_MSG.cancelling : cancelLabel}
            </button>
          )}
          <span className="hint">This order is waiting for its payment.</span>
        </p>
      )}
      {done && (
        <p className="order-cancelled" role="status">
          {CANCEL_ORDER_MSG.done(order.id)}
        </p>
      )}
      {error && <Alert kind="error">{error}</Alert>}
    </div>
  );
}

/** The statuses of an order that was paid and not given up: what it cost, in parts, and when it comes. */
const WAS_PAID = new Set(['paid', 'queued', 'printing', 'shipped']);
/** Until it ships, its ship-by date. */
const SHIPS_WHEN = new Set(['paid', 'queued', 'printing']);

type CostsOf = Pick<
  OrderView,
  'status' | 'subtotal' | 'shipping_amount' | 'shipping_method' | 'tax_amount' | 'tax_lines'
>;

/**
 * A paid order's money in parts (entries of the order's facts list): the items, the shipping method and
 * its price ('Free' when nothing was charged), and each tax the payment provider charged.
 */
export function OrderCosts({ order }: { order: CostsOf }) {
  if (!WAS_PAID.has(order.status) || typeof order.subtotal !== 'number') return null;
  const shipping = order.shipping_amount ?? 0;
  const taxLines = (order.tax_amount ?? 0) > 0 ? (order.tax_lines ?? []) : [];
  return (
    <>
      <div>
        <dt>Subtotal</dt>
        <dd data-testid="subtotal">{formatMoney(order.subtotal)}</dd>
      </div>
      <div>
        <dt>Shipping{order.shipping_method ? ` (${order.shipping_method})` : ''}</dt>
        <dd data-testid="shipping">{shipping > 0 ? formatMoney(shipping) : 'Free'}</dd>
      </div>
      {taxLines.length === 0 && (order.tax_amount ?? 0) > 0 && (
        <div>
          <dt>Tax</dt>
          <dd data-testid="tax">{formatMoney(order.tax_amount ?? 0)}</dd>
        </div>
      )}
      {taxLines.map((line, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the provider's tax lines never reorder.
        <div key={n}>
          <dt>{line.label}</dt>
          <dd data-testid="tax">{formatMoney(line.amount)}</dd>
        </div>
      ))}
    </>
  );
}

type DatesOf = Pick<OrderView, 'status' | 'ship_by' | 'arrives_from' | 'arrives_by'>;

/** When the order leaves the shop ('Tue, Dec 1', until it ships) and when it should arrive ('Dec 3-7'). */
export function OrderDates({ order }: { order: DatesOf }) {
  const arrives = order.arrives_from && order.arrives_by && WAS_PAID.has(order.status);
  return (
    <>
      {order.ship_by && SHIPS_WHEN.has(order.status) && (
        <div>
          <dt>Ships by</dt>
          <dd data-testid="ship-by">{formatShipDay(order.ship_by)}</dd>
        </div>
      )}
      {arrives && (
        <div>
          <dt>Arrives</dt>
          <dd data-testid="arrives">{formatDayRange(order.arrives_from!, order.arrives_by!)}</dd>
        </div>
      )}
    </>
  );
}
