import { z } from 'zod';
import { SHIPPING_COUNTRIES } from './catalog.ts';

// Shipping methods, delivery dates and taxes (docs/domain.md "Shipping"): the settings' shapes (defaults in
// code, stored in the settings table, edited in the admin later), what the cart and the hosted page offer
// for one cart, and the words every page uses for them. Shared: the server checks and prices, the client
// shows; one schema for both.

export const shipToCountry = z.enum(SHIPPING_COUNTRIES, {
  error: 'Ship to must be US (United States) or CA (Canada).',
});
export type ShipTo = z.infer<typeof shipToCountry>;

const cents = z.number().int().min(0).max(100_000_000);
const businessDays = z.number().int().min(0).max(60);

export const shippingMethod = z
  .object({
    /** Stable for the method's life: the hosted page's choice names it, and orders keep it. */
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'A method id is 1-40 lowercase letters, digits and dashes.'),
    name: z.string().trim().min(1).max(60),
    priceCents: cents,
    /** Business days the carrier takes, from the day it leaves the shop. */
    transitDays: z.object({ min: businessDays, max: businessDays }),
    /** The items' subtotal from which this method costs nothing; null: never free. */
    freeFromCents: cents.nullable(),
  })
  .refine((m) => m.transitDays.min <= m.transitDays.max, {
    message: 'The fewest transit days cannot be more than the most.',
    path: ['transitDays'],
  });
export type ShippingMethod = z.infer<typeof shippingMethod>;

const methodList = z
  .array(shippingMethod)
  .min(1, 'Each country needs at least one shipping method.')
  .max(5, "At most 5 shipping methods per country (Stripe Checkout's limit).")
  .refine((list) => new Set(list.map((m) => m.id)).size === list.length, 'Method ids must differ.');

/** Per country, the methods in the order they are offered: the first is preselected. */
export const shippingSettings = z.object({ US: methodList, CA: methodList });
export type ShippingSettings = z.infer<typeof shippingSettings>;

export const DEFAULT_SHIPPING: ShippingSettings = {
  US: [
    {
      id: 'us-standard',
      name: 'US Standard',
      priceCents: 695,
      transitDays: { min: 3, max: 5 },
      freeFromCents: 7500,
    },
    {
      id: 'us-expedited',
      name: 'US Expedited',
      priceCents: 1995,
      transitDays: { min: 1, max: 2 },
      freeFromCents: null,
    },
  ],
  CA: [
    {
      id: 'ca-standard',
      name: 'Canada Standard',
      priceCents: 1495,
      transitDays: { min: 5, max: 8 },
      freeFromCents: 15000,
    },
    {
      id: 'ca-expedited',
      name: 'Canada Expedited',
      priceCents: 3495,
      transitDays: { min: 2, max: 4 },
      freeFromCents: null,
    },
  ],
};

/**
 * One method as offered for one cart: its price for this subtotal (0 from the free-shipping threshold) and
 * the dates it gives. What the order stores as the offer, and what the hosted page shows.
 */
export const shippingOffer = z.object({
  id: z.string(),
  name: z.string(),
  /** This cart's price: 0 when the subtotal reaches the method's free-shipping threshold. */
  priceCents: z.number().int(),
  /** The method's price without the threshold, to show 'free' truthfully. */
  listPriceCents: z.number().int(),
  freeFromCents: z.number().int().nullable(),
  transitDays: z.object({ min: z.number().int(), max: z.number().int() }),
  /** YYYY-MM-DD in the shop's time zone: the ship-by date and the arrival window. */
  shipBy: z.string(),
  arrivesFrom: z.string(),
  arrivesBy: z.string(),
  /**
   * Business days from the checkout to arrival (what Stripe's page shows as its delivery estimate), kept on
   * the order's offers so a retried session is the same request.
   */
  arrivalBusinessDays: z.object({ min: z.number().int(), max: z.number().int() }).optional(),
});
export type ShippingOffer = z.infer<typeof shippingOffer>;

/**
 * How taxes are handled, so every page says what happens: `automatic` (Stripe computes and adds them where
 * the shop is registered), `none` (Stripe without automatic tax: nothing is added), `test` (the simulator:
 * nothing is charged; in live mode the payment provider computes them).
 */
export const TAX_MODES = ['automatic', 'none', 'test'] as const;
export type TaxMode = (typeof TAX_MODES)[number];

export const TAX_WORDS: Record<TaxMode, string> = {
  automatic: 'Sales tax, GST or HST is calculated at checkout where it applies.',
  none: 'No tax is added at checkout.',
  test: 'Test mode: no tax is charged. In live mode taxes are calculated by the payment provider at checkout.',
};

/** The price rules every page may state (docs/domain.md "Prices"): the minimum per piece, the quantity discounts. */
export const shopPricing = z.object({
  minimumCents: z.number().int().positive(),
  /** Rising by pieces; `percent` off the line from `minQuantity` pieces of one line. */
  quantityTiers: z.array(
    z.object({ minQuantity: z.number().int().positive(), percent: z.number().positive() }),
  ),
});
export type ShopPricing = z.infer<typeof shopPricing>;

/** GET /api/shop: what every page may say about the shop's checkout (public, no secrets). */
export const shopInfoPayload = z.object({
  testMode: z.boolean(),
  /** Which payment mode runs: the TEST simulator, Stripe's test mode, or Stripe live (real money). */
  paymentMode: z.enum(['simulator', 'stripe-test', 'stripe-live']),
  tax: z.enum(TAX_MODES),
  shipping: shippingSettings,
  /** Always sent; a page that reads an answer without it says nothing about the rules. */
  pricing: shopPricing.optional(),
});
export type ShopInfoPayload = z.infer<typeof shopInfoPayload>;

/** The order's shipping method as it was paid (a snapshot: settings may change later). */
export const paidShipping = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  transitDays: z.object({ min: z.number().int(), max: z.number().int() }),
});
export type PaidShipping = z.infer<typeof paidShipping>;

/** One tax the provider charged (Stripe's total_details.breakdown.taxes), as the order keeps it. */
export const taxLine = z.object({
  amountCents: z.number().int(),
  /** 'Sales tax 5.5 % (WI)', 'HST 13 %': the provider's words, for the order and the mail. */
  label: z.string(),
});
export type TaxLine = z.infer<typeof taxLine>;

// Dates in words. Dates are calendar days (YYYY-MM-DD) in the shop's time zone, shown as such: read at noon
// UTC so no browser time zone moves them a day.

const at = (day: string) => new Date(`${day}T12:00:00Z`);

/** '2026-12-01' -> 'Tue, Dec 1' */
export function formatShipDay(day: string): string {
  const d = at(day);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** ('2026-12-03', '2026-12-07') -> 'Dec 3-7'; across months 'Nov 30-Dec 2'; one day 'Dec 3'. */
export function formatDayRange(from: string, to: string): string {
  const a = at(from);
  const b = at(to);
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return `${from}-${to}`;
  const month = (d: Date) => d.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' });
  if (from === to) return `${month(a)} ${a.getUTCDate()}`;
  if (a.getUTCMonth() === b.getUTCMonth() && a.getUTCFullYear() === b.getUTCFullYear()) {
    return `${month(a)} ${a.getUTCDate()}-${b.getUTCDate()}`;
  }
  return `${month(a)} ${a.getUTCDate()}-${month(b)} ${b.getUTCDate()}`;
}

/** 'Order today, ships by Tue, Dec 1; arrives Dec 3-7 with US Standard' */
export function deliveryWords(
  offer: Pick<ShippingOffer, 'name' | 'shipBy' | 'arrivesFrom' | 'arrivesBy'>,
): string {
  return `Order today, ships by ${formatShipDay(offer.shipBy)}; arrives ${formatDayRange(offer.arrivesFrom, offer.arrivesBy)} with ${offer.name}`;
}

/** 'Free' or '$6.95' for an offer's price (the caller formats money). */
export function isFree(offer: Pick<ShippingOffer, 'priceCents'>): boolean {
  return offer.priceCents === 0;
}
