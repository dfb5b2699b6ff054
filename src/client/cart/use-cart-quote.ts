import { useEffect, useRef, useState } from 'react';
import type { CartQuotePayload } from '../../shared/checkout.ts';
import type { ShipTo, TaxMode } from '../../shared/shipping.ts';
import type { CartItem } from './cart-item.ts';
import { cartQuoteKey, fetchCartQuote, isPriced, type QuotedLine } from './cart-quote.ts';
import { setCartUnitPrices } from './cart-store.ts';

// The server's prices for the cart, asked for a moment after the last change. Every amount shown is the
// server's: a line keeps the price it was last quoted at for exactly its model, color, strength and quantity,
// and a line without one shows that its price is on its way (or unavailable), never a sum worked out here.

export const CART_QUOTE_DELAY_MS = 300;

export type CartPricing = {
  /** Per cart line, in order: the server's price or refusal, or undefined while it is unknown. */
  lines: (QuotedLine | undefined)[];
  /**
   * Dollars: the server's total for exactly this cart, or the sum of the server's line totals when every
   * line has one (a line that cannot be ordered counts nothing, as on the server); null while a line's
   * price is unknown.
   */
  total: number | null;
  /** True while the answer for the current cart is on its way. */
  pending: boolean;
  /** The quote call failed: a line without a price of its own shows it as unavailable. */
  error: string;
  /** Some line cannot be ordered: the checkout would refuse it. */
  blocked: boolean;
  /**
   * The server's shipping offers for exactly this cart and country (null: no line can be ordered);
   * undefined while they are on their way or the quote failed.
   */
  shipping: CartQuotePayload['shipping'] | undefined;
  /** The country the server last quoted for (its default until the customer chooses); null before. */
  quotedShipTo: ShipTo | null;
  /** How taxes are handled at checkout, as the server last said; null before its first answer. */
  tax: TaxMode | null;
};

type Answer = {
  key: string;
  byLine: Map<string, QuotedLine>;
  total: number | null;
  error: string;
  shipping: CartQuotePayload['shipping'] | undefined;
  quotedShipTo: ShipTo | null;
  tax: TaxMode | null;
};

const lineKey = (i: CartItem) => cartQuoteKey([i]);

/** The sum of the server's line totals, in whole cents; null when a line has no answer yet. */
export function sumOfLines(lines: (QuotedLine | undefined)[]): number | null {
  let cents = 0;
  for (const line of lines) {
    if (!line) return null;
    if (isPriced(line)) cents += Math.round(line.lineTotal * 100);
  }
  return cents / 100;
}

/**
 * `shipTo`: the customer's choice, sent with every request (a change asks again); null: the server's
 * default country.
 */
export function useCartQuote(items: CartItem[], shipTo: ShipTo | null): CartPricing {
  const key = `${cartQuoteKey(items)}|${shipTo ?? ''}`;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const shipToRef = useRef(shipTo);
  shipToRef.current = shipTo;
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    const asked = itemsRef.current;
    if (asked.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const result = await fetchCartQuote(asked, shipToRef.current, controller.signal);
        if (controller.signal.aborted) return;
        if (!result.ok) {
          setAnswer((prev) => ({
            key,
            byLine: prev?.byLine ?? new Map(),
            total: null,
            error: result.error,
            shipping: undefined,
            quotedShipTo: prev?.quotedShipTo ?? null,
            tax: prev?.tax ?? null,
          }));
          return;
        }
        const byLine = new Map<string, QuotedLine>();
        const prices = new Map<string, number>();
        result.value.lines.forEach((line, n) => {
          const item = asked[n];
          if (!item) return;
          byLine.set(lineKey(item), line);
          if (isPriced(line)) prices.set(item.id, line.unitPrice);
        });
        const { shipping, tax, total } = result.value;
        setAnswer((prev) => ({
          key,
          byLine,
          total,
          error: '',
          shipping,
          quotedShipTo: shipping?.shipTo ?? prev?.quotedShipTo ?? null,
          tax,
        }));
        setCartUnitPrices(prices);
      } catch (err) {
        if (!controller.signal.aborted) console.warn('Cart quote failed:', err);
      }
    }, CART_QUOTE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  const current = answer?.key === key;
  const lines = items.map((i) => answer?.byLine.get(lineKey(i)));
  return {
    lines,
    total: current && answer.total !== null ? answer.total : sumOfLines(lines),
    pending: items.length > 0 && !current,
    error: current ? answer.error : '',
    blocked: lines.some((l) => !!l && !isPriced(l)),
    shipping: current ? answer.shipping : undefined,
    quotedShipTo: answer?.quotedShipTo ?? null,
    tax: answer?.tax ?? null,
  };
}
