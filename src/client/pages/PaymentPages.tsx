import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { statusLabel } from '../../shared/catalog.ts';
import { clearCart } from '../cart/cart-store.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { type CheckoutStatus, useCheckoutStatus } from './checkout-status.ts';

export const STATUS_MSG = {
  checking: 'Checking your payment…',
  stillPending:
    'Your payment is still being confirmed. This can take a few minutes; My Orders shows the order as soon as it is.',
} as const;

function OrderState({ status }: { status: CheckoutStatus }) {
  if (status.state === 'idle' || status.state === 'unknown') return null;
  if (status.state === 'checking') {
    return (
      <p className="loading" role="status">
        {STATUS_MSG.checking}
      </p>
    );
  }
  const waiting = status.status === 'pending';
  return (
    <div className="order-state" role="status" data-testid="order-state">
      <p>
        <strong>Order #{status.orderId}:</strong>{' '}
        <span className={`status-badge status-${status.status || 'unknown'}`}>
          {statusLabel(status.status)}
        </span>
      </p>
      {waiting && <p className="hint">{status.settling ? STATUS_MSG.checking : STATUS_MSG.stillPending}</p>}
    </div>
  );
}

export function PaymentSuccessPage() {
  useDocumentTitle('Payment Successful');
  const [params] = useSearchParams();
  const status = useCheckoutStatus(params.get('session_id'));
  useEffect(() => clearCart(), []);
  return (
    <section className="page notice-page" aria-labelledby="paid-title">
      <div className="card notice-card">
        <h1 id="paid-title">Payment Successful</h1>
        <Alert kind="success">{MSG.paymentSuccess}</Alert>
        <OrderState status={status} />
        <p>
          <Link className="button button-primary" to="/orders">
            View My Orders
          </Link>
        </p>
      </div>
    </section>
  );
}

export function PaymentCancelPage() {
  useDocumentTitle('Payment not completed');
  return (
    <section className="page notice-page" aria-labelledby="cancel-title">
      <div className="card notice-card">
        <h1 id="cancel-title">Payment not completed</h1>
        <Alert kind="info">{MSG.paymentCancelled}</Alert>
        <p>
          <Link className="button button-primary" to="/#cart-section">
            View Cart
          </Link>
        </p>
      </div>
    </section>
  );
}
