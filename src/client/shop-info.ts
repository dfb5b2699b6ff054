import { useEffect, useState } from 'react';
import { formatCents } from '../shared/format.ts';
import type {
  ShippingMethod,
  ShippingSettings,
  ShipTo,
  ShopInfoPayload,
  ShopPricing,
} from '../shared/shipping.ts';
import { TAX_MODES } from '../shared/shipping.ts';
import { getJson, readJson } from './api.ts';

// GET /api/shop: what the pages may say about the shop's checkout (taxes, shipping methods per country),
// asked once per page load and shared by every page that needs it. A failed call is asked again by the
// next page that needs it; until then the pages say what they said without it.

let pending: Promise<ShopInfoPayload | null> | null = null;
let known: ShopInfoPayload | null = null;

const isCents = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function readMethod(v: unknown): ShippingMethod | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Record<string, unknown>;
  const days = (r.transitDays ?? {}) as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.name !== 'string' || !r.name || !isCents(r.priceCents))
    return null;
  if (r.freeFromCents !== null && !isCents(r.freeFromCents)) return null;
  if (!isCents(days.min) || !isCents(days.max)) return null;
  return {
    id: r.id,
    name: r.name,
    priceCents: r.priceCents,
    transitDays: { min: days.min, max: days.max },
    freeFromCents: r.freeFromCents,
  };
}

function readMethods(v: unknown): ShippingMethod[] | null {
  if (!Array.isArray(v)) return null;
  const list = v.map(readMethod);
  return list.some((m) => m === null) ? null : (list as ShippingMethod[]);
}

/** The price rules (minimum, quantity discounts); undefined when missing or unreadable, so nothing is said. */
function readPricing(v: unknown): ShopPricing | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  if (!Number.isInteger(r.minimumCents) || (r.minimumCents as number) < 1) return undefined;
  if (!Array.isArray(r.quantityTiers)) return undefined;
  const tiers: ShopPricing['quantityTiers'] = [];
  for (const t of r.quantityTiers as unknown[]) {
    const { minQuantity, percent } = (t ?? {}) as Record<string, unknown>;
    if (!Number.isInteger(minQuantity) || (minQuantity as number) < 1) return undefined;
    if (typeof percent !== 'number' || !(percent > 0 && percent < 100)) return undefined;
    tiers.push({ minQuantity: minQuantity as number, percent });
  }
  return { minimumCents: r.minimumCents as number, quantityTiers: tiers };
}

const PAYMENT_MODES = ['simulator', 'stripe-test', 'stripe-live'] as const;

/** A light check of the answer (no schema library in the pages' chunks); null when it is unreadable. */
export function readShopInfo(data: unknown): ShopInfoPayload | null {
  if (!data || typeof data !== 'object') return null;
  const r = data as Record<string, unknown>;
  const tax = TAX_MODES.find((m) => m === r.tax);
  const shipping = (r.shipping ?? {}) as Record<string, unknown>;
  const US = readMethods(shipping.US);
  const CA = readMethods(shipping.CA);
  if (typeof r.testMode !== 'boolean' || !tax || !US || !CA) return null;
  const settings: ShippingSettings = { US, CA };
  const paymentMode =
    PAYMENT_MODES.find((m) => m === r.paymentMode) ?? (r.testMode ? 'simulator' : 'stripe-test');
  const pricing = readPricing(r.pricing);
  return { testMode: r.testMode, paymentMode, tax, shipping: settings, ...(pricing ? { pricing } : {}) };
}

async function fetchShopInfo(): Promise<ShopInfoPayload | null> {
  try {
    const res = await getJson('/api/shop');
    return res.ok ? readShopInfo(await readJson(res)) : null;
  } catch {
    return null;
  }
}

/** The shop's info, asked once; null when the call failed (the next call asks again). */
export function loadShopInfo(): Promise<ShopInfoPayload | null> {
  if (known) return Promise.resolve(known);
  pending ??= fetchShopInfo().then((info) => {
    if (info) known = info;
    else pending = null;
    return info;
  });
  return pending;
}

/** Tests: forget the answer. */
export function forgetShopInfo(): void {
  known = null;
  pending = null;
}

/** The shop's info for a component: null until it is known (and when the call failed). */
export function useShopInfo(): ShopInfoPayload | null {
  const [info, setInfo] = useState<ShopInfoPayload | null>(known);
  useEffect(() => {
    if (known) return;
    let live = true;
    loadShopInfo().then((i) => {
      if (live && i) setInfo(i);
    });
    return () => {
      live = false;
    };
  }, []);
  return info;
}

/** '3-5 business days', '1 business day'. */
export function transitWords(days: { min: number; max: number }): string {
  const n = days.min === days.max ? `${days.min}` : `${days.min}-${days.max}`;
  return `${n} business day${days.max === 1 ? '' : 's'}`;
}

export const SHIP_TO_NAMES: Record<ShipTo, string> = { US: 'United States', CA: 'Canada' };

/** 'US Standard: $6.95, 3-5 business days in transit, free on orders from $75.00.' */
export function methodWords(m: ShippingMethod): string {
  const price = m.priceCents === 0 ? 'free' : formatCents(m.priceCents);
  const free =
    m.priceCents > 0 && m.freeFromCents !== null
      ? `, free on orders from ${formatCents(m.freeFromCents)}`
      : '';
  return `${m.name}: ${price}, ${transitWords(m.transitDays)} in transit${free}.`;
}
