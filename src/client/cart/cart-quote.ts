import type { CartQuotePayload, CartQuoteRequest, PricedCartLine } from '../../shared/checkout.ts';
import { errorText, postJson, readJson } from '../api.ts';
import type { CartItem } from './cart-item.ts';

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

/** The request; each line also carries its file name, for the server to name a line it refuses. */
export function cartQuoteRequest(items: CartItem[]): {
  items: (CartQuoteRequest['items'][number] & { fileName: string })[];
} {
  return {
    items: items.map((i) => ({
      modelId: i.filePath,
      color: i.color,
      strength: i.strength,
      quantity: i.quantity,
      fileName: i.fileName,
    })),
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

/** A light check of the answer (the cart's chunk carries no zod): one readable line per requested line. */
export function readCartQuote(data: unknown, lineCount: number): CartQuotePayload | null {
  if (!data || typeof data !== 'object') return null;
  const r = data as Record<string, unknown>;
  if (!Array.isArray(r.lines) || r.lines.length !== lineCount || !isNumber(r.total)) return null;
  const lines = r.lines.map(readLine);
  if (lines.some((l) => l === null)) return null;
  return { currency: 'usd', lines: lines as QuotedLine[], total: r.total };
}

export async function fetchCartQuote(items: CartItem[], signal?: AbortSignal): Promise<CartQuoteOutcome> {
  try {
    const res = await postJson('/api/cart/quote', cartQuoteRequest(items), { signal });
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
