import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { type CheckoutOrder, isPaidStatus, useCheckoutStatus } from './checkout-status.ts';
import { PendingOrderActions, StatusBadge } from './OrderParts.tsx';
import { fetchOrders, type OrderView } from './order-api.ts';
import { settlePaidOrder } from './paid-cart.ts';

// The pages the payment provider sends the customer back to. The success page claims a payment only when
// the shop says this customer's order behind the session is paid; the cancel page shows the order's state
// as My Orders does. Neither changes the cart, except for a paid order's own lines.

export const STATUS_MSG = {
  checking: 'Checking your payment…',
  waiting: 'Waiting for the payment to be confirmed.',
  stillPending:
    'Your payment is still being confirmed. This can take a few minutes; My Orders shows the order as soon as it is.',
  notFound: 'We could not find a completed payment.',
  notFoundHint: 'If you paid, My Orders shows the order as soon as the payment is confirmed.',
  failed: 'The shop could not be asked about this payment just now. Please try again in a moment.',
  testOrder: 'Test order: no money was taken.',
  loggedOut: 'You are logged out. Log in to see whether this payment went through.',
  cancelLoggedOut: 'Log in to see this order.',
} as const;

export const SUCCESS_TITLES = {
  checking: STATUS_MSG.checking,
  paid: 'Payment Successful',
  notFound: 'No completed payment',
  loggedOut: 'Log in to see your payment',
} as const;

function NoticePage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="page notice-page" aria-labelledby="notice-title">
      <div className="card notice-card">
        <h1 id="notice-title">{title}</h1>
        {children}
      </div>
    </section>
  );
}

function OrderLine({ orderId, status }: { orderId: number; status: string }) {
  return (
    <p>
      <strong>Order #{orderId}:</strong> <StatusBadge status={status} />
    </p>
  );
}

const MyOrdersLink = () => (
  <p>
    <Link className="button button-primary" to="/orders">
      View My Orders
    </Link>
  </p>
);

/** A login that comes back to this page (with its query). */
function LogInHere({ label }: { label: string }) {
  const location = useLocation();
  return (
    <Link className="button button-primary" to="/login" state={{ from: location }}>
      {label}
    </Link>
  );
}

function Paid({ order }: { order: CheckoutOrder }) {
  // Exactly this order's lines leave the cart, once (paid-cart.ts).
  useEffect(() => {
    void settlePaidOrder(order.orderId, order.items);
  }, [order.orderId, order.items]);
  return (
    <NoticePage title={SUCCESS_TITLES.paid}>
      <Alert kind="success">{MSG.paymentSuccess}</Alert>
      <div className="order-state" data-testid="order-state">
        <OrderLine orderId={order.orderId} status={order.status} />
      </div>
      {order.testMode && <p className="test-order-note">{STATUS_MSG.testOrder}</p>}
      <MyOrdersLink />
    </NoticePage>
  );
}

function SuccessForSession({ sessionId }: { sessionId: string }) {
  const session = useSession();
  const ask = !session.loading && !!session.username;
  const status = useCheckoutStatus(ask ? sessionId : null);

  if (session.loading || (ask && (status.state === 'idle' || status.state === 'checking'))) {
    return <Checking />;
  }
  if (!session.username || status.state === 'loggedOut') {
    return (
      <NoticePage title={SUCCESS_TITLES.loggedOut}>
        <p>{STATUS_MSG.loggedOut}</p>
        <p>
          <LogInHere label="Log in" />
        </p>
      </NoticePage>
    );
  }
  if (status.state === 'known') {
    const { order } = status;
    if (isPaidStatus(order.status)) return <Paid order={order} />;
    if (status.settling) return <Checking order={order} />;
    return <NotFound order={order} />;
  }
  return <NotFound failed={status.state === 'failed'} />;
}

/** While the shop asks (the heading says so); a pending order's number and state once known. */
function Checking({ order }: { order?: CheckoutOrder }) {
  return (
    <NoticePage title={SUCCESS_TITLES.checking}>
      {order && (
        <div className="order-state" data-testid="order-state">
          <OrderLine orderId={order.orderId} status={order.status} />
          <p className="hint">{STATUS_MSG.waiting}</p>
        </div>
      )}
    </NoticePage>
  );
}

/** No success claimed: what is known of the order, if anything, and the way to My Orders. */
function NotFound({ order, failed = false }: { order?: CheckoutOrder; failed?: boolean }) {
  return (
    <NoticePage title={SUCCESS_TITLES.notFound}>
      <Alert kind="info">{STATUS_MSG.notFound}</Alert>
      {order && (
        <div className="order-state" data-testid="order-state">
          <OrderLine orderId={order.orderId} status={order.status} />
          {order.status === 'pending' && <p className="hint">{STATUS_MSG.stillPending}</p>}
        </div>
      )}
      {failed ? (
        <p className="hint">{STATUS_MSG.failed}</p>
      ) : (
        !order && <p className="hint">{STATUS_MSG.notFoundHint}</p>
      )}
      <MyOrdersLink />
    </NoticePage>
  );
}

export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  if (!sessionId) return <NotFound />;
  // A new session id is a new question: nothing of the last answer carries over.
  return <SuccessForSession key={sessionId} sessionId={sessionId} />;
}

/** The caller's order `orderId` as get_orders.php has it (null: not asked, not found or not readable yet). */
function useOwnOrder(orderId: number | null) {
  const [order, setOrder] = useState<OrderView | null>(null);
  const [reads, setReads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` reads the order again (it moved).
  useEffect(() => {
    if (orderId === null) return;
    const controller = new AbortController();
    fetchOrders(controller.signal)
      .then((outcome) => {
        if (controller.signal.aborted || !outcome.ok) return;
        setOrder(outcome.orders.find((o) => o.id === orderId) ?? null);
      })
      .catch((err) => {
        if (!controller.signal.aborted) console.warn('Could not read the order:', err);
      });
    return () => controller.abort();
  }, [orderId, reads]);

  return { order, setOrder, readAgain: () => setReads((n) => n + 1) };
}

export function PaymentCancelPage() {
  const [params] = useSearchParams();
  const { username, loading } = useSession();
  const raw = params.get('order') ?? '';
  const orderId = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  const { order, setOrder, readAgain } = useOwnOrder(orderId !== null && username ? orderId : null);
  const shown = username && order?.id === orderId ? order : null;
  // One main action: paying the pending order when it can be; else back to the cart.
  const payable = !!shown && shown.status === 'pending' && !!shown.payment_url;
  return (
    <NoticePage title="Payment not completed">
      <Alert kind="info">{MSG.paymentCancelled}</Alert>
      {shown && (
        <div className="order-state" data-testid="order-state">
          <OrderLine orderId={shown.id} status={shown.status} />
          <PendingOrderActions
            order={shown}
            cancelLabel="Cancel this order"
            onCancelled={(status) => setOrder({ ...shown, status, can_cancel: false, payment_url: null })}
            onStale={readAgain}
          />
        </div>
      )}
      {orderId !== null && !username && !loading && (
        <p>
          {STATUS_MSG.cancelLoggedOut} <LogInHere label="Log in" />
        </p>
      )}
      <p>
        <Link className={payable ? 'button' : 'button button-primary'} to="/#cart-section">
          View Cart
        </Link>
      </p>
    </NoticePage>
  );
}
