import { useState } from 'react';
import { Link } from 'react-router';
import type { CartItem } from '../cart/cart-item.ts';
import { addCartItem } from '../cart/cart-store.ts';
import { Alert } from '../ui/Alert.tsx';
import { ORDER_AGAIN_MSG, orderAgain, type Unavailable } from './order-api.ts';

// My Orders' 'Order again': the order's lines go back into the cart at today's prices, merged as adding
// from a model card merges them (same model, color and strength add up); the cart saves and syncs itself.
// What cannot be ordered any more is listed with why, never silently dropped.

/** Adds each line as a model card would; answers how many pieces went in. */
export function putBackInCart(items: readonly CartItem[]): number {
  let pieces = 0;
  for (const { id: _, ...line } of items) {
    addCartItem(line);
    pieces += line.quantity;
  }
  return pieces;
}

type Result = { pieces: number; unavailable: Unavailable[] };

export function OrderAgain({ orderId }: { orderId: number }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState('');

  async function run() {
    setBusy(true);
    setError('');
    setResult(null);
    const outcome = await orderAgain(orderId);
    setBusy(false);
    if (!outcome.ok) {
      setError(outcome.error);
      return;
    }
    setResult({ pieces: putBackInCart(outcome.items), unavailable: outcome.unavailable });
  }

  return (
    <div className="order-actions order-again">
      <p className="order-pay">
        <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={run}>
          {busy ? ORDER_AGAIN_MSG.busy : ORDER_AGAIN_MSG.button}
        </button>
      </p>
      {result && result.pieces > 0 && (
        <Alert kind="success">
          {ORDER_AGAIN_MSG.added(result.pieces)} <Link to="/#cart-section">View cart</Link>
        </Alert>
      )}
      {result && result.unavailable.length > 0 && (
        <Alert kind="error">
          <strong>{ORDER_AGAIN_MSG.unavailable}</strong>
          {/* No stylesheet rule of its own: the alert's padding is the list's. */}
          <ul className="order-again-unavailable" style={{ margin: '0.25rem 0 0', paddingLeft: '1.25rem' }}>
            {result.unavailable.map((u, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the server's list, in the order's order, never reorders.
              <li key={n}>
                {u.fileName}: {u.reason}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {error && <Alert kind="error">{error}</Alert>}
    </div>
  );
}
