import { useEffect } from 'react';
import { Link } from 'react-router';
import { clearCart } from '../cart/cart-store.ts';
import { MSG } from '../messages.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export function PaymentSuccessPage() {
  useDocumentTitle('Payment Successful');
  useEffect(() => clearCart(), []);
  return (
    <section className="page notice-page" aria-labelledby="paid-title">
      <div className="card notice-card">
        <h1 id="paid-title">Payment Successful</h1>
        <Alert kind="success">{MSG.paymentSuccess}</Alert>
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
