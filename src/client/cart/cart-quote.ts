import type { CartQuotePayload, CartQuoteRequest, PricedCartLine } from '../../shared/checkout.ts';
import { type ShippingOffer, type ShipTo, TAX_MODES, type TaxMode } from '../../shared/shipping.ts';
import { errorText, postJson, readJson } from '../api.ts';
import type { CartItem } from './cart-item.ts';
import { isShipTo } from './ship-to.ts';

// POST /api/cart/quote: what the checkout will charge for the cart, line by line and in total.

export const CART_QUOTE_MSG = {
  failed: 'Could not update the prices just now. The checkout charges the current prices.',
} as const;

/** One line as the server priced it, or why it cannot be ordered. */
export type QuotedLine = PricedCartLine | { error: string };

export type CartQuoteOutcome = { ok: true; value: CartQuotePayload } | { ok: false; error: string };

/** What the quote depends on: file, color, strength and quantity of every line, in order (not cost or notes). */
export function cartQuoteKey(items: CartItem[]): string {
  return JSON.stringify(items.map((i) => [i.filePath, i.color, i.strength, i.quantity]));
}

/**
 * The request; each line also carries its file name, for the server to name a line it refuses. `shipTo`:
 * the customer's choice; without it the server answers its default country.
 */
export function cartQuoteRequest(
  items: CartItem[],
  shipTo?: ShipTo | null,
): {
  items: (CartQuoteRequest['items'][number] & { fileName: string })[];
  shipTo?: ShipTo;
} {
  return {
    items: items.map((i) => ({
      modelId: i.filePath,
      color: i.color,
      strength: i.strength,
      quantity: i.quantity,
      fileName: i.fileName,
    })),
    ...(shipTo ? { shipTo } : {}),
  };
}

/**
 * A refusal shown on its own line: the server names a line it cannot name otherwise by its position
 * ('"Item 2" is not available any more...'); the line's own file name reads better there.
 */
export function lineErrorText(error: string, index: number, fileName: string): string {
  const byPosition = `"Item ${index + 1}"`;
  return fileName && error.startsWith(byPosition) ? `"${fileName}"${error.slice(byPosition.length)}` : error;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function readLine(v: unknown): QuotedLine | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Record<string, unknown>;
  if (typeof r.error === 'string') return { error: r.error };
  if (!isNumber(r.unitPrice) || !isNumber(r.lineTotal)) return null;
  return {
    unitPrice: r.unitPrice,
    lineTotal: r.lineTotal,
    discountPercent: isNumber(r.discountPercent) ? r.discountPercent : 0,
  };
}

const isDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const isCents = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function readOffer(v: unknown): ShippingOffer | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Record<string, unknown>;
  const days = (r.transitDays ?? {}) as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.name !== 'string' || !r.name) return null;
  if (!isCents(r.priceCents) || !isCents(r.listPriceCents)) return null;
  if (r.freeFromCents !== null && !isCents(r.freeFromCents)) return null;
  if (!isCents(days.min) || !isCents(days.max)) return null;
  if (!isDay(r.shipBy) || !isDay(r.arrivesFrom) || !isDay(r.arrivesBy)) return null;
  return {
    id: r.id,
    name: r.name,
    priceCents: r.priceCents,
    listPriceCents: r.listPriceCents,
    freeFromCents: r.freeFromCents,
    transitDays: { min: days.min, max: days.max },
    shipBy: r.shipBy,
    arrivesFrom: r.arrivesFrom,
    arrivesBy: r.arrivesBy,
  };
}

/** Where it ships and the methods offered (first preselected); undefined when the answer is unreadable. */
function readShipping(v: unknown): CartQuotePayload['shipping'] | undefined {
  if (v === null) return null;
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  if (!isShipTo(r.shipTo) || !Array.isArray(r.options)) return undefined;
  const options = r.options.map(readOffer);
  if (options.some((o) => o === null)) return undefined;
  return { shipTo: r.shipTo, options: options as ShippingOffer[] };
}

const isTaxMode = (v: unknown): v is TaxMode => TAX_MODES.some((m) => m === v);

/**
 * A light check of the answer (no schema library here): one readable line per requested line, the shipping
 * offers and the tax mode.
 */
export function readCartQuote(data: unknown, lineCount: number): CartQuotePayload | null {
  if (!data || typeof data !== 'object') return null;
  const r = data as Record<string, unknown>;
  if (!Array.isArray(r.lines) || r.lines.length !== lineCount || !isNumber(r.total)) return null;
  const lines = r.lines.map(readLine);
  if (lines.some((l) => l === null)) return null;
  const shipping = readShipping(r.shipping);
  if (shipping === undefined || !isTaxMode(r.tax)) return null;
  return { currency: 'usd', lines: lines as QuotedLine[], total: r.total, shipping, tax: r.tax };
}

export async function fetchCartQuote(
  items: CartItem[],
  shipTo: ShipTo | null,
  signal?: AbortSignal,
): Promise<CartQuoteOutcome> {
  try {
    const res = await postJson('/api/cart/quote', cartQuoteRequest(items, shipTo), { signal });
    const data = await readJson(res);
    if (!res.ok) return { ok: false, error: errorText(data) ?? CART_QUOTE_MSG.failed };
    const quote = readCartQuote(data, items.length);
    return quote ? { ok: true, value: quote } : { ok: false, error: CART_QUOTE_MSG.failed };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, error: CART_QUOTE_MSG.failed };
  }
}

export const isPriced = (line: QuotedLine | undefined): line is PricedCartLine =>
  !!line && !('error' in line);
