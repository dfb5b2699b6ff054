import { useEffect, useState } from 'react';
import { getJson, readJson } from '../api.ts';

// The order behind a payment session, asked of GET /api/checkout/status?session_id= (which also asks the
// payment provider, so a late webhook does not leave the customer waiting). While the answer is `pending`
// it asks again every POLL_MS, up to POLL_LIMIT times.

export const POLL_MS = 2000;
export const POLL_LIMIT = 15;

export type CheckoutStatus =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'known'; orderId: number; status: string; settling: boolean }
  | { state: 'unknown' };

async function askOnce(sessionId: string, signal: AbortSignal) {
  const res = await getJson(`/api/checkout/status?session_id=${encodeURIComponent(sessionId)}`, { signal });
  if (!res.ok) return null;
  const data = await readJson(res);
  if (typeof data.orderId !== 'number' || typeof data.status !== 'string') return null;
  return { orderId: data.orderId, status: data.status };
}

/** `settling`: the order is still pending and we are still asking; false once we gave up or it moved. */
export function useCheckoutStatus(sessionId: string | null): CheckoutStatus {
  const [status, setStatus] = useState<CheckoutStatus>(sessionId ? { state: 'checking' } : { state: 'idle' });

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    const ask = async () => {
      tries++;
      try {
        const answer = await askOnce(sessionId, controller.signal);
        if (controller.signal.aborted) return;
        if (!answer) return setStatus({ state: 'unknown' });
        const again = answer.status === 'pending' && tries < POLL_LIMIT;
        setStatus({ state: 'known', ...answer, settling: again });
        if (again) timer = setTimeout(ask, POLL_MS);
      } catch (err) {
        if (controller.signal.aborted) return;
        console.warn('Checkout status failed:', err);
        setStatus({ state: 'unknown' });
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
