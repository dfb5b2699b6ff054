import { SHIPPING_COUNTRIES } from '../../shared/catalog.ts';
import type { SimulatorPayInput, SimulatorSessionPayload } from '../../shared/checkout.ts';
import { errorText, getJson, postJson, readJson } from '../api.ts';

// The simulator's calls: GET /api/pay/simulator/:id and POST /api/pay/simulator/:id/pay.

export const PAY_PAGE_MSG = {
  loading: 'Loading your checkout…',
  notFound: 'This checkout does not exist. Go back to the shop and check out again.',
  failed: 'Could not load this checkout. Please try again later.',
  expired: 'This checkout has expired. Your cart has not been changed: go back to it and check out again.',
  complete: 'This checkout has already been paid.',
  payFailed: 'The payment could not be completed. Please try again.',
  network: 'Network error or server issue. Please try again later.',
} as const;

export type SessionOutcome = { ok: true; value: SimulatorSessionPayload } | { ok: false; error: string };

export type PayOutcome =
  | { ok: true; redirectUrl: string }
  | { ok: false; status: number; error: string; field?: string };

const STATUSES = ['open', 'complete', 'expired'];

const PREFILL_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const;

/** The customer's last address to fill the form in with: every field a string, or none at all. */
function readPrefill(value: unknown): SimulatorSessionPayload['prefill'] {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!PREFILL_FIELDS.every((f) => typeof v[f] === 'string')) return null;
  return Object.fromEntries(PREFILL_FIELDS.map((f) => [f, v[f]])) as NonNullable<
    SimulatorSessionPayload['prefill']
  >;
}

const isShipTo = (v: unknown): v is SimulatorSessionPayload['shipTo'] =>
  typeof v === 'string' && (SHIPPING_COUNTRIES as readonly string[]).includes(v);

/** Each shipping method offered has an id, a name, a price and its business days. */
function okOptions(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  return value.every(
    (o) =>
      o &&
      typeof o === 'object' &&
      typeof o.id === 'string' &&
      typeof o.name === 'string' &&
      typeof o.amount === 'number' &&
      typeof o.minDays === 'number' &&
      typeof o.maxDays === 'number',
  );
}

/** A light check of the session (the fields the page reads). */
export function readSession(data: Record<string, unknown>): SimulatorSessionPayload | null {
  const { id, shopName, status, total, subtotal, lines, cancelUrl, successUrl } = data;
  if (typeof id !== 'string' || typeof shopName !== 'string' || typeof total !== 'number') return null;
  if (typeof subtotal !== 'number' || !isShipTo(data.shipTo) || !okOptions(data.shippingOptions)) return null;
  if (typeof status !== 'string' || !STATUSES.includes(status)) return null;
  if (typeof cancelUrl !== 'string' || typeof successUrl !== 'string' || !Array.isArray(lines)) return null;
  const okLines = lines.every(
    (l) => l && typeof l === 'object' && typeof l.name === 'string' && typeof l.amount === 'number',
  );
  if (!okLines) return null;
  return {
    ...(data as SimulatorSessionPayload),
    currency: typeof data.currency === 'string' ? data.currency : 'usd',
    prefill: readPrefill(data.prefill),
  };
}

export async function fetchSession(id: string, signal?: AbortSignal): Promise<SessionOutcome> {
  try {
    const res = await getJson(`/api/pay/simulator/${encodeURIComponent(id)}`, { signal });
    const data = await readJson(res);
    if (res.status === 404) return { ok: false, error: PAY_PAGE_MSG.notFound };
    if (!res.ok) return { ok: false, error: errorText(data) ?? PAY_PAGE_MSG.failed };
    const session = readSession(data);
    return session ? { ok: true, value: session } : { ok: false, error: PAY_PAGE_MSG.failed };
  } catch {
    return { ok: false, error: PAY_PAGE_MSG.failed };
  }
}

export async function paySession(id: string, input: SimulatorPayInput): Promise<PayOutcome> {
  try {
    const res = await postJson(`/api/pay/simulator/${encodeURIComponent(id)}/pay`, input);
    const data = await readJson(res);
    if (res.ok && typeof data.redirectUrl === 'string' && data.redirectUrl) {
      return { ok: true, redirectUrl: data.redirectUrl };
    }
    return {
      ok: false,
      status: res.status,
      error: errorText(data) ?? PAY_PAGE_MSG.payFailed,
      field: typeof data.field === 'string' ? data.field : undefined,
    };
  } catch {
    return { ok: false, status: 0, error: PAY_PAGE_MSG.network };
  }
}
