import type { CartQuotePayload } from '../../shared/checkout.ts';
import { formatCents, formatMoney } from '../../shared/format.ts';
import { isFree, type TaxMode } from '../../shared/shipping.ts';
import { UNPRICED_TEXT, type Unpriced } from './CartLine.tsx';

// The cart's totals: the items, the preselected method's shipping, the tax as the checkout handles it, and
// their sum, which is what the hosted payment page starts with (before any tax it adds).

const TAX_AMOUNT: Record<TaxMode, string> = {
  automatic: 'at checkout',
  none: formatMoney(0),
  test: formatMoney(0),
};

/** Cents: items + the first (preselected) method; null while either is unknown. */
export function cartTotalCents(
  itemsTotal: number | null,
  shipping: CartQuotePayload['shipping'] | undefined,
): number | null {
  if (itemsTotal === null || shipping === undefined) return null;
  return Math.round(itemsTotal * 100) + (shipping?.options[0]?.priceCents ?? 0);
}

export function CartTotals({
  itemsTotal,
  shipping,
  tax,
  unpriced,
}: {
  /** Dollars: the items' subtotal; null while a line's price is unknown. */
  itemsTotal: number | null;
  /** The server's offers for this cart; undefined while unknown. */
  shipping: CartQuotePayload['shipping'] | undefined;
  tax: TaxMode | null;
  unpriced: Unpriced;
}) {
  const unknown = <span className="unpriced">{UNPRICED_TEXT[unpriced]}</span>;
  const first = shipping?.options[0];
  const total = cartTotalCents(itemsTotal, shipping);
  return (
    <dl className="cart-totals">
      <div>
        <dt>Items</dt>
        <dd data-testid="cart-items">{itemsTotal === null ? unknown : formatMoney(itemsTotal)}</dd>
      </div>
      <div>
        <dt>Shipping{first ? ` (${first.name})` : ''}</dt>
        <dd data-testid="cart-shipping">
          {shipping === undefined
            ? unknown
            : !first
              ? '–'
              : isFree(first)
                ? 'Free'
                : formatCents(first.priceCents)}
        </dd>
      </div>
      <div>
        <dt>Tax</dt>
        <dd data-testid="cart-tax">{tax ? TAX_AMOUNT[tax] : unknown}</dd>
      </div>
      <div className="cart-totals-sum">
        <dt>Total estimate</dt>
        <dd>
          <strong data-testid="cart-total">{total === null ? unknown : formatCents(total)}</strong>
        </dd>
      </div>
    </dl>
  );
}
