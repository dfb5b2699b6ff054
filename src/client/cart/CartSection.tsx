import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { type ShipTo, TAX_WORDS, type TaxMode } from '../../shared/shipping.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { Alert } from '../ui/Alert.tsx';
import { CartLine, type Unpriced } from './CartLine.tsx';
import { CartTotals } from './CartTotals.tsx';
import { useCart } from './cart-store.ts';
import { ShippingOffers, ShipToSelect } from './ShippingChoice.tsx';
import { readShipTo, saveShipTo } from './ship-to.ts';
import { useCartQuote } from './use-cart-quote.ts';

const SHIPS_TO = 'We ship to the US and Canada.';
/** What the cart says about taxes, as the checkout handles them, and where it ships. */
export const cartHint = (tax: TaxMode | null) => (tax ? `${TAX_WORDS[tax]} ${SHIPS_TO}` : SHIPS_TO);
const CART_BLOCKED = 'A line above cannot be ordered as it is. Change or remove it to check out.';
/** Where logging in returns to: this cart. */
const BACK_TO_CART = { pathname: '/', search: '', hash: '#cart-section' };

/** The cart screen of docs/pages.md, shown on the home page when logged in with a non-empty cart. */
export default function CartSection() {
  const items = useCart();
  const { username, sessionEnded } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  // The customer's own 'Ship to', remembered; without one, the country the server quoted for.
  const [chosenShipTo, setChosenShipTo] = useState<ShipTo | null>(readShipTo);
  const pricing = useCartQuote(items, chosenShipTo);
  const shipTo: ShipTo = chosenShipTo ?? pricing.quotedShipTo ?? 'US';
  const unpriced: Unpriced = pricing.error && !pricing.pending ? 'unavailable' : 'updating';

  function chooseShipTo(next: ShipTo) {
    saveShipTo(next);
    setChosenShipTo(next);
  }

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
      const res = await postJson('/api/create-checkout-session.php', { cartItems: items, shipTo });
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
        {/* Where and how it ships beside what it costs; one column on a phone. */}
        <div className="cart-summary-ship">
          <ShipToSelect value={shipTo} onChange={chooseShipTo} />
          <ShippingOffers shipping={pricing.shipping} itemsTotal={pricing.total} unpriced={unpriced} />
        </div>
        <div className="cart-summary-pay">
          <CartTotals
            itemsTotal={pricing.total}
            shipping={pricing.shipping}
            tax={pricing.tax}
            unpriced={unpriced}
          />
          <p className="hint" role="status">
            {pricing.pending ? 'Updating the prices…' : pricing.error || cartHint(pricing.tax)}
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
    </div>
  );
}
