import { useEffect, useState } from 'react';
import type { PaidLine } from '../../shared/cart.ts';
import { getJson, readJson } from '../api.ts';

// The caller's order behind a payment session, asked of GET /api/checkout/status?session_id= (which also
// asks the payment provider, so a late webhook does not leave the customer waiting). While the answer is
// `pending` it asks again every POLL_MS, up to POLL_LIMIT times. Only the customer's own checkout answers:
// another customer's session id is a 404, as an unknown one is.

export const POLL_MS = 2000;
export const POLL_LIMIT = 15;

/** Statuses of an order whose payment went through (staff may have moved it on already). */
const PAID_STATUSES = new Set(['paid', 'queued', 'printing', 'shipped']);
export const isPaidStatus = (status: string) => PAID_STATUSES.has(status);

export type CheckoutOrder = { orderId: number; status: string; testMode: boolean; items: PaidLine[] };

export type CheckoutStatus =
  /** Nothing asked (no session id, or not logged in yet). */
  | { state: 'idle' }
  | { state: 'checking' }
  /** `settling`: the order is still pending and we are still asking; false once we gave up or it moved. */
  | { state: 'known'; order: CheckoutOrder; settling: boolean }
  /** No checkout of this customer's has that session id. */
  | { state: 'notFound' }
  /** The session ended: the server wants a login first. */
  | { state: 'loggedOut' }
  /** The shop could not be asked (network, server error). */
  | { state: 'failed' };

type Answer =
  | { kind: 'order'; order: CheckoutOrder }
  | { kind: 'notFound' }
  | { kind: 'loggedOut' }
  | { kind: 'failed' };

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function readItems(value: unknown): PaidLine[] | null {
  if (!Array.isArray(value)) return null;
  const items: PaidLine[] = [];
  for (const v of value) {
    if (!v || typeof v !== 'object') return null;
    const { modelId, color, strength, quantity } = v as Record<string, unknown>;
    if (modelId !== null && typeof modelId !== 'string') return null;
    if (typeof color !== 'string' || !isNumber(strength) || !isNumber(quantity)) return null;
    items.push({ modelId, color, strength, quantity });
  }
  return items;
}

/** A light check of the answer (this page's chunk carries no zod). */
export function readCheckoutOrder(data: Record<string, unknown>): CheckoutOrder | null {
  const items = readItems(data.items);
  if (!isNumber(data.orderId) || typeof data.status !== 'string' || !items) return null;
  return { orderId: data.orderId, status: data.status, testMode: data.testMode === true, items };
}

async function askOnce(sessionId: string, signal: AbortSignal): Promise<Answer> {
  const res = await getJson(`/api/checkout/status?session_id=${encodeURIComponent(sessionId)}`, { signal });
  const data = await readJson(res);
  if (res.status === 401) return { kind: 'loggedOut' };
  // 400: not a session id at all; 404: unknown, or another customer's.
  if (res.status === 404 || res.status === 400) return { kind: 'notFound' };
  if (!res.ok) return { kind: 'failed' };
  const order = readCheckoutOrder(data);
  return order ? { kind: 'order', order } : { kind: 'failed' };
}

/** Asks about `sessionId` (null: asks nothing) and follows a pending order until it moves or we give up. */
export function useCheckoutStatus(sessionId: string | null): CheckoutStatus {
  const [status, setStatus] = useState<CheckoutStatus>(sessionId ? { state: 'checking' } : { state: 'idle' });

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    setStatus((s) => (s.state === 'idle' ? { state: 'checking' } : s));
    const ask = async () => {
      tries++;
      try {
        const answer = await askOnce(sessionId, controller.signal);
        if (controller.signal.aborted) return;
        if (answer.kind !== 'order') return setStatus({ state: answer.kind });
        const again = answer.order.status === 'pending' && tries < POLL_LIMIT;
        setStatus({ state: 'known', order: answer.order, settling: again });
        if (again) timer = setTimeout(ask, POLL_MS);
      } catch (err) {
        if (controller.signal.aborted) return;
        console.warn('Checkout status failed:', err);
        setStatus({ state: 'failed' });
      }
    };
    ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [sessionId]);

  return status;
}
