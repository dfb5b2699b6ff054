import { useState } from 'react';
import { statusLabel } from '../../shared/catalog.ts';
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
