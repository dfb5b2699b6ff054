import { useState } from 'react';
import { useNavigate } from 'react-router';
import { colorName, colorSwatch, strengthLabel } from '../../shared/catalog.ts';
import { formatDimensions, formatMoney, formatVolume } from '../../shared/format.ts';
import { errorText, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { cartTotal } from './cart-item.ts';
import { removeCartItem, setCartQuantity, useCart } from './cart-store.ts';

/** The cart screen of SPEC.md §2, shown on the home page when logged in with a non-empty cart. */
export default function CartSection() {
  const items = useCart();
  const { username } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function checkout() {
    if (items.length === 0) return alert(MSG.cartEmpty);
    if (!username) {
      alert(MSG.checkoutNeedsLogin);
      return navigate('/login');
    }
    setBusy(true);
    try {
      const res = await postJson('/api/create-checkout-session.php', { cartItems: items });
      const data = await readJson(res);
      if (!res.ok) return alert(MSG.checkoutFailed(errorText(data) ?? `${res.statusText} (${res.status})`));
      if (typeof data.id !== 'string' || !data.id) return alert(MSG.checkoutFailed(MSG.checkoutNoSession));
      if (typeof data.url !== 'string') return alert(MSG.checkoutFailed(MSG.checkoutNoSession));
      try {
        window.location.assign(data.url);
      } catch (err) {
        alert(MSG.checkoutError(err instanceof Error ? err.message : String(err)));
      }
    } catch (err) {
      alert(MSG.checkoutFailed(err instanceof Error ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="cart">
      <ul className="cart-items">
        {items.map((item) => (
          <li key={item.id} className="cart-item card">
            <div className="thumb">
              {item.previewImage ? (
                <img src={item.previewImage} alt={`Preview of ${item.fileName}`} width="96" height="96" />
              ) : (
                <span className="no-preview">No Preview</span>
              )}
            </div>
            <div className="cart-item-body">
              <p className="file-name">{item.fileName}</p>
              <p className="meta">
                <span
                  className="swatch small"
                  style={{ background: colorSwatch(item.color) }}
                  aria-hidden="true"
                />{' '}
                {colorName(item.color)} · {strengthLabel(item.strength)} ({item.strength}/5) ·{' '}
                {formatMoney(item.cost)} each
              </p>
              <p className="meta">
                {item.volumeCm3 > 0 && <>{formatVolume(item.volumeCm3)} · </>}
                {formatDimensions(item.dimensions)}
              </p>
              {item.notes && <p className="notes">Notes: {item.notes}</p>}
            </div>
            <div className="cart-item-side">
              <fieldset className="quantity">
                <legend className="visually-hidden">Quantity of {item.fileName}</legend>
                <button
                  type="button"
                  className="button button-small"
                  aria-label="Decrease quantity"
                  onClick={() => setCartQuantity(item.id, item.quantity - 1)}
                >
                  −
                </button>
                <input
                  type="number"
                  min={0}
                  step={1}
                  inputMode="numeric"
                  aria-label="Quantity"
                  value={item.quantity}
                  onChange={(e) => {
                    const q = Number(e.target.value);
                    if (e.target.value !== '' && Number.isInteger(q) && q >= 0) setCartQuantity(item.id, q);
                  }}
                />
                <button
                  type="button"
                  className="button button-small"
                  aria-label="Increase quantity"
                  onClick={() => setCartQuantity(item.id, item.quantity + 1)}
                >
                  +
                </button>
              </fieldset>
              <p className="line-total">{formatMoney(item.cost * item.quantity)}</p>
              <button type="button" className="link-button danger" onClick={() => removeCartItem(item.id)}>
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      <div className="cart-summary card">
        <p>
          Total estimate: <strong>{formatMoney(cartTotal(items))}</strong>
        </p>
        <p className="hint">Taxes are confirmed at checkout. We ship to the US and Canada.</p>
        <button
          type="button"
          className="button button-primary button-large"
          disabled={busy}
          onClick={checkout}
        >
          {busy ? 'Starting checkout…' : 'Proceed to Checkout'}
        </button>
      </div>
    </div>
  );
}
