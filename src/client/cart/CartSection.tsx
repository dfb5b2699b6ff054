import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../shared/format.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { CartLine, UNPRICED_TEXT, type Unpriced } from './CartLine.tsx';
import { useCart } from './cart-store.ts';
import { useCartQuote } from './use-cart-quote.ts';

const CART_HINT = 'Taxes are confirmed at checkout. We ship to the US and Canada.';
const CART_BLOCKED = 'A line above cannot be ordered as it is. Change or remove it to check out.';
/** Where logging in returns to: this cart. */
const BACK_TO_CART = { pathname: '/', search: '', hash: '#cart-section' };

/** The cart screen of docs/pages.md, shown on the home page when logged in with a non-empty cart. */
export default function CartSection() {
  const items = useCart();
  const { username, sessionEnded } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const pricing = useCartQuote(items);
  const unpriced: Unpriced = pricing.error && !pricing.pending ? 'unavailable' : 'updating';

  // Back from the hosted checkout, a page restored from the back/forward cache is usable again.
  useEffect(() => {
    const restored = (e: PageTransitionEvent) => {
      if (e.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  async function checkout() {
    if (items.length === 0) return alert(MSG.cartEmpty);
    const toLogin = () => {
      alert(MSG.checkoutNeedsLogin);
      return navigate('/login', { state: { from: BACK_TO_CART } });
    };
    if (!username) return toLogin();
    setBusy(true);
    const fail = (message: string) => {
      setBusy(false);
      alert(message);
    };
    try {
      const res = await postJson('/api/create-checkout-session.php', { cartItems: items });
      const data = await readJson(res);
      if (res.status === 401) {
        // The session ended (expired, or logged out elsewhere): logged out here too, the cart kept for
        // the login that comes back to it.
        setBusy(false);
        sessionEnded();
        return toLogin();
      }
      if (!res.ok) return fail(MSG.checkoutFailed(errorText(data) ?? `${res.statusText} (${res.status})`));
      if (typeof data.id !== 'string' || !data.id || typeof data.url !== 'string' || !data.url) {
        return fail(MSG.checkoutFailed(MSG.checkoutNoSession));
      }
      try {
        // The button stays busy while the browser leaves for the hosted checkout.
        window.location.assign(data.url);
      } catch (err) {
        fail(MSG.checkoutError(err instanceof Error ? err.message : String(err)));
      }
    } catch (err) {
      fail(MSG.checkoutFailed(err instanceof Error ? err.message : String(err)));
    }
  }

  return (
    <div className="cart">
      <ul className="cart-items">
        {items.map((item, n) => (
          <CartLine key={item.id} item={item} index={n} quoted={pricing.lines[n]} unpriced={unpriced} />
        ))}
      </ul>
      <div
        className="cart-summary card"
        data-state={pricing.pending ? 'pending' : pricing.error ? 'failed' : 'quoted'}
      >
        <p>
          Total estimate:{' '}
          <strong data-testid="cart-total">
            {pricing.total === null ? (
              <span className="unpriced">{UNPRICED_TEXT[unpriced]}</span>
            ) : (
              formatMoney(pricing.total)
            )}
          </strong>
        </p>
        <p className="hint" role="status">
          {pricing.pending ? 'Updating the prices…' : pricing.error || CART_HINT}
        </p>
        {pricing.blocked && <Alert kind="error">{CART_BLOCKED}</Alert>}
        <button
          type="button"
          className="button button-primary button-large"
          disabled={busy || pricing.blocked}
          onClick={checkout}
        >
          {busy ? 'Starting checkout…' : 'Proceed to Checkout'}
        </button>
      </div>
    </div>
  );
}
