import { useId } from 'react';
import { SHIPPING_COUNTRIES } from '../../shared/catalog.ts';
import type { CartQuotePayload } from '../../shared/checkout.ts';
import { formatCents } from '../../shared/format.ts';
import {
  deliveryWords,
  formatDayRange,
  isFree,
  type ShippingOffer,
  type ShipTo,
} from '../../shared/shipping.ts';
import { SHIP_TO_NAMES, transitWords } from '../shop-info.ts';
import { UNPRICED_TEXT, type Unpriced } from './CartLine.tsx';

// The cart's 'Ship to' and the shipping methods the server offers for it, with their dates. The hosted
// payment page offers the same methods, the first preselected; the customer picks one there.

export const METHOD_CHOSEN_LATER = 'You choose the shipping method on the payment page.';

export function ShipToSelect({ value, onChange }: { value: ShipTo; onChange: (shipTo: ShipTo) => void }) {
  const id = useId();
  return (
    <div className="ship-to">
      <label htmlFor={id}>Ship to</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as ShipTo)}>
        {SHIPPING_COUNTRIES.map((c) => (
          <option key={c} value={c}>
            {SHIP_TO_NAMES[c]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** 'Free US Standard from $75.00 — add $12.34 more': for a method not free yet that can be. */
export function freeShippingHint(offer: ShippingOffer, itemsCents: number | null): string {
  if (isFree(offer) || offer.freeFromCents === null) return '';
  const missing = itemsCents === null ? 0 : offer.freeFromCents - itemsCents;
  const from = `Free ${offer.name} from ${formatCents(offer.freeFromCents)}`;
  return missing > 0 ? `${from} — add ${formatCents(missing)} more` : from;
}

function OfferPrice({ offer }: { offer: ShippingOffer }) {
  if (!isFree(offer)) return <>{formatCents(offer.priceCents)}</>;
  return (
    <>
      Free
      {offer.listPriceCents > 0 && (
        <>
          {' '}
          <s className="list-price">
            <span className="visually-hidden">instead of </span>
            {formatCents(offer.listPriceCents)}
          </s>
        </>
      )}
    </>
  );
}

/**
 * The methods for the chosen country: name, this cart's price, transit time and arrival window, what it
 * takes to ship free; and the preselected method's dates in words. `shipping` undefined: not known yet.
 */
export function ShippingOffers({
  shipping,
  itemsTotal,
  unpriced,
}: {
  shipping: CartQuotePayload['shipping'] | undefined;
  /** Dollars: the items' subtotal, for the free-shipping hint. */
  itemsTotal: number | null;
  unpriced: Unpriced;
}) {
  if (shipping === undefined) {
    return (
      <div className="cart-shipping">
        <p className="unpriced" data-testid="ship-methods-unknown">
          Shipping: {UNPRICED_TEXT[unpriced]}
        </p>
      </div>
    );
  }
  const first = shipping?.options[0];
  if (!shipping || !first) return null;
  const itemsCents = itemsTotal === null ? null : Math.round(itemsTotal * 100);
  return (
    <div className="cart-shipping">
      <ul className="ship-methods" aria-label={`Shipping to ${SHIP_TO_NAMES[shipping.shipTo]}`}>
        {shipping.options.map((o) => {
          const hint = freeShippingHint(o, itemsCents);
          return (
            <li key={o.id} className="ship-method" data-testid="ship-method">
              <span className="ship-method-name">{o.name}</span>
              <span className="ship-method-price">
                <OfferPrice offer={o} />
              </span>
              <span className="ship-method-dates">
                {transitWords(o.transitDays)} in transit · arrives{' '}
                {formatDayRange(o.arrivesFrom, o.arrivesBy)}
              </span>
              {hint && <span className="ship-method-free">{hint}</span>}
            </li>
          );
        })}
      </ul>
      <p className="ship-when" data-testid="delivery">
        {deliveryWords(first)}
      </p>
      <p className="hint">{METHOD_CHOSEN_LATER}</p>
    </div>
  );
}
