import type { OrderAgainPayload, OrderItemPayload, OrderPayload } from '../../shared/orders.ts';
import { errorText, getJson, postJson, readJson } from '../api.ts';
import { type CartItem, normalizeCart } from '../cart/cart-item.ts';
import { MSG } from '../messages.ts';

// The customer's orders (GET /api/get_orders.php), cancelling one of them (POST /api/orders/:id/cancel),
// for My Orders and the payment cancel page, which must show an order alike; and ordering one again
// (POST /api/orders/:id/order-again) from My Orders.

/** An order as get_orders.php answers it, read defensively: a field the page does not get is left out. */
export type OrderView = Omit<OrderPayload, 'items' | OptionalField> &
  Partial<Pick<OrderPayload, OptionalField>> & { items: OrderItemView[] };
type OptionalField =
  | 'ship_by'
  | 'arrives_from'
  | 'arrives_by'
  | 'subtotal'
  | 'shipping_amount'
  | 'shipping_method'
  | 'tax_amount'
  | 'tax_lines'
  | 'payment_url'
  | 'test_mode'
  | 'carrier'
  | 'tracking_url'
  | 'amount_refunded'
  | 'refunds'
  | 'notes'
  | 'can_cancel';
export type OrderItemView = Omit<OrderItemPayload, 'line_total'> & { line_total?: number | null };

export type OrdersOutcome = { ok: true; orders: OrderView[] } | { ok: false; error: string };

/** The orders, or the specified message for why not (the server's error, the status, or bad data). */
export async function fetchOrders(signal?: AbortSignal): Promise<OrdersOutcome> {
  const res = await getJson('/api/get_orders.php', { signal });
  if (!res.ok) {
    const data = await readJson(res);
    return { ok: false, error: errorText(data) ?? MSG.ordersFailed(res.statusText, res.status) };
  }
  const data: unknown = await res.json();
  if (!Array.isArray(data)) return { ok: false, error: MSG.ordersBadData };
  return { ok: true, orders: data as OrderView[] };
}

export const CANCEL_ORDER_MSG = {
  confirm: (id: number) => `Cancel order #${id}? It will not be paid or printed. Your cart stays as it is.`,
  cancelling: 'Cancelling…',
  done: (id: number) => `Order #${id} is cancelled.`,
  failed: 'The order could not be cancelled. Please try again.',
} as const;

/** The customer may cancel it here: still waiting for its payment, and the server says so. */
export const canCancel = (order: Pick<OrderView, 'status' | 'can_cancel'>) =>
  order.status === 'pending' && order.can_cancel === true;

export type CancelOutcome = { ok: true; status: string } | { ok: false; status: number; error: string };

/** POST /api/orders/:id/cancel: the order's new status, or the server's reason (409 paid meanwhile...). */
export async function cancelOrder(id: number): Promise<CancelOutcome> {
  try {
    const res = await postJson(`/api/orders/${id}/cancel`, {});
    const data = await readJson(res);
    if (res.ok && typeof data.status === 'string') return { ok: true, status: data.status };
    return { ok: false, status: res.status, error: errorText(data) ?? CANCEL_ORDER_MSG.failed };
  } catch {
    return { ok: false, status: 0, error: MSG.network };
  }
}

export const ORDER_AGAIN_MSG = {
  button: 'Order again',
  busy: 'Adding…',
  added: (pieces: number) =>
    pieces === 1
      ? "1 item is back in your cart at today's prices."
      : `${pieces} items are back in your cart at today's prices.`,
  unavailable: 'Not added to your cart:',
  failed: 'The order could not be put back in your cart. Please try again.',
} as const;

export type Unavailable = OrderAgainPayload['unavailable'][number];
export type OrderAgainOutcome =
  | { ok: true; items: CartItem[]; unavailable: Unavailable[] }
  | { ok: false; error: string };

/** POST /api/orders/:id/order-again: the order's lines at today's prices and those it cannot give back. */
export async function orderAgain(id: number): Promise<OrderAgainOutcome> {
  try {
    const res = await postJson(`/api/orders/${id}/order-again`, {});
    const data = await readJson(res);
    if (!res.ok || !Array.isArray(data.items)) {
      return { ok: false, error: errorText(data) ?? ORDER_AGAIN_MSG.failed };
    }
    const unavailable = (Array.isArray(data.unavailable) ? data.unavailable : []).flatMap(
      (u: { fileName?: unknown; reason?: unknown }) =>
        u && typeof u.fileName === 'string' && typeof u.reason === 'string'
          ? [{ fileName: u.fileName, reason: u.reason }]
          : [],
    );
    return { ok: true, items: normalizeCart(data.items), unavailable };
  } catch {
    return { ok: false, error: MSG.network };
  }
}
