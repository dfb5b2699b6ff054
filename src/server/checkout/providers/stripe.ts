import Stripe from 'stripe';
import { shippingAddress } from '../../../shared/address.ts';
import { SHIPPING_COUNTRIES } from '../../../shared/catalog.ts';
import type { Config } from '../../config.ts';
import {
  type CreatedSession,
  type CustomerOf,
  type NewRefund,
  type NewSession,
  type PaymentMode,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderRefund,
  type RawAddress,
  RefundRefusedError,
  SessionNotFoundError,
  type SessionState,
} from '../payment-provider.ts';

// Stripe Checkout (hosted page) through stripe-node. Every line is sent as one item of quantity 1 priced
// at the server's line total, so a quantity discount is charged exactly as the cart showed it and the
// session's amount_total equals the order's total to the cent. Cards only, on purpose: a card payment is
// settled when the session completes, so no order waits days on a bank debit that may still fail (the
// fulfilment still reads the PaymentIntent of a complete, unpaid session and fails it when Stripe did).

export type StripeSettings = NonNullable<Config['stripe']>;

/**
 * The API version the shop is written against, pinned so that a Stripe account's default version never
 * changes what the webhook and the session read back hold. The SDK is pinned to its minor version
 * (package.json), whose types are this version's.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** stripe-node pointed at Stripe, or at STRIPE_API_BASE (a local stub in tests, stripe-mock, a proxy). */
export function stripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/** Live or test mode, from the key (sk_live_/rk_live_ or anything else). */
export function stripeMode(secretKey: string): PaymentMode {
  return /^(sk|rk)_live_/.test(secretKey) ? 'stripe-live' : 'stripe-test';
}

/** `value` when it is one of `known`, else `fallback` (Stripe may add values to its enums). */
function oneOf<T extends string, F extends string>(
  value: string | null,
  known: readonly T[],
  fallback: F,
): T | F {
  return known.find((k) => k === value) ?? fallback;
}

/** The id of an expandable Stripe field (an id, or the object when expanded). */
export const idOf = (v: string | { id: string } | null | undefined) =>
  typeof v === 'string' ? v : (v?.id ?? null);

/** 'Sales Tax 5.5 % (WI)': a tax rate in words, for the order and the mail. */
function taxLabel(rate: Stripe.TaxRate | string): string {
  if (typeof rate === 'string') return 'Tax';
  const where = rate.state ?? rate.jurisdiction ?? rate.country;
  const percent = Number.isFinite(rate.percentage) ? ` ${rate.percentage} %` : '';
  return `${rate.display_name || 'Tax'}${percent}${where ? ` (${where})` : ''}`;
}

function toState(s: Stripe.Checkout.Session): SessionState {
  const details = s.collected_information?.shipping_details ?? null;
  const address = details?.address;
  const raw: RawAddress | null = address
    ? {
        name: details?.name ?? '',
        line1: address.line1 ?? '',
        line2: address.line2 ?? '',
        city: address.city ?? '',
        state: address.state ?? '',
        postalCode: address.postal_code ?? '',
        country: address.country ?? '',
      }
    : null;
  const shipping = raw ? shippingAddress.safeParse(raw) : null;
  const orderId = Number(s.client_reference_id ?? s.metadata?.orderId);
  const intent = typeof s.payment_intent === 'object' ? s.payment_intent : null;
  return {
    id: s.id,
    // Stripe may add values: anything unknown reads as not finished and not paid.
    status: oneOf(s.status, ['complete', 'expired'] as const, 'open'),
    paymentStatus: oneOf(s.payment_status, ['paid', 'no_payment_required'] as const, 'unpaid'),
    amountTotalCents: s.amount_total,
    amountSubtotalCents: s.amount_subtotal,
    shippingCents: s.shipping_cost?.amount_subtotal ?? s.total_details?.amount_shipping ?? null,
    shippingMethodId: shippingMethodOf(s),
    taxCents: s.total_details?.amount_tax ?? null,
    taxLines: (s.total_details?.breakdown?.taxes ?? [])
      .filter((t) => t.amount > 0)
      .map((t) => ({ amountCents: t.amount, label: taxLabel(t.rate) })),
    currency: s.currency,
    paymentIntentId: idOf(s.payment_intent),
    paymentIntentStatus: intent ? intent.status : null,
    chargeId: idOf(intent?.latest_charge),
    shipping: shipping?.success ? shipping.data : null,
    rawShipping: raw,
    orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
  };
}

/** The shop's method id of the rate chosen: its metadata (the rate is expanded when the session is read). */
function shippingMethodOf(s: Stripe.Checkout.Session): string | null {
  const rate = s.shipping_cost?.shipping_rate;
  if (!rate) return null;
  if (typeof rate === 'object') return rate.metadata?.methodId ?? null;
  // Not expanded: find it among the options the session lists.
  const option = s.shipping_options?.find((o) => idOf(o.shipping_rate) === rate);
  return option && typeof option.shipping_rate === 'object'
    ? (option.shipping_rate.metadata?.methodId ?? null)
    : null;
}

/** A Stripe refund as the shop reads it (the API's answers and the refund.* events alike). */
export function toRefund(r: Stripe.Refund): ProviderRefund {
  return {
    id: r.id,
    amountCents: r.amount,
    currency: r.currency,
    status:
      r.status === 'succeeded'
        ? 'succeeded'
        : r.status === 'failed' || r.status === 'canceled'
          ? 'failed'
          : 'pending',
    paymentIntentId: idOf(r.payment_intent),
    metadata: { ...(r.metadata ?? {}) } as Record<string, string>,
  };
}

const isMissing = (err: unknown) =>
  err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');
/** Stripe answered and said no (as opposed to not answering): retrying the same call will not help. */
const isRefusal = (err: unknown) =>
  err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError;

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly mode: PaymentMode;
  readonly stripe: Stripe;

  private readonly automaticTax: boolean;

  constructor(settings: StripeSettings) {
    this.stripe = stripeClient(settings);
    this.mode = stripeMode(settings.secretKey);
    this.automaticTax = settings.automaticTax;
  }

  async createSession(input: NewSession): Promise<CreatedSession> {
    const { customer } = input;
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          allowed_payment_method_types: ['card'],
          client_reference_id: String(input.orderId),
          metadata: { orderId: String(input.orderId) },
          ...(customer.providerCustomerId
            ? {
                customer: customer.providerCustomerId,
                // The address typed here is kept on the Customer, so the next checkout is prefilled.
                customer_update: { shipping: 'auto' as const, name: 'auto' as const },
              }
            : { customer_email: customer.email }),
          payment_intent_data: {
            description: input.description,
            metadata: { orderId: String(input.orderId) },
          },
          line_items: input.lines.map((l) => ({
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: l.amountCents,
              // Prices are tax-exclusive (SPEC §9): Stripe Tax adds the tax on top.
              tax_behavior: 'exclusive' as const,
              product_data: {
                name: l.name,
                description: l.description,
                ...(l.imageUrl ? { images: [l.imageUrl] } : {}),
              },
            },
          })),
          shipping_address_collection: {
            allowed_countries: input.shipTo ? [input.shipTo] : [...SHIPPING_COUNTRIES],
          },
          ...(input.shippingOptions.length > 0
            ? {
                shipping_options: input.shippingOptions.map((o) => ({
                  shipping_rate_data: {
                    type: 'fixed_amount' as const,
                    display_name: o.name,
                    fixed_amount: { amount: o.amountCents, currency: input.currency },
                    tax_behavior: 'exclusive' as const,
                    delivery_estimate: {
                      minimum: { unit: 'business_day' as const, value: Math.max(1, o.minDays) },
                      maximum: { unit: 'business_day' as const, value: Math.max(1, o.maxDays) },
                    },
                    metadata: { methodId: o.id },
                  },
                })),
              }
            : {}),
          ...(this.automaticTax ? { automatic_tax: { enabled: true } } : {}),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        // One order, one session: a retried request (a double click, a restart) cannot open a second one.
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new PaymentProviderError('Stripe answered a session without a URL.');
      return {
        id: session.id,
        url: session.url,
        expiresAt: session.expires_at ? new Date(session.expires_at * 1000) : input.expiresAt,
      };
    } catch (err) {
      if (err instanceof PaymentProviderError) throw err;
      throw new PaymentProviderError(`Stripe refused the checkout session: ${(err as Error).message}`);
    }
  }

  async retrieveSession(id: string): Promise<SessionState> {
    try {
      return toState(
        await this.stripe.checkout.sessions.retrieve(id, {
          expand: ['payment_intent', 'shipping_cost.shipping_rate', 'total_details.breakdown'],
        }),
      );
    } catch (err) {
      if (isMissing(err)) throw new SessionNotFoundError(`Stripe does not know session ${id}.`);
      throw new PaymentProviderError(`Stripe did not answer for session ${id}: ${(err as Error).message}`);
    }
  }

  async expireSession(id: string): Promise<'expired' | 'complete'> {
    try {
      await this.stripe.checkout.sessions.expire(id);
      return 'expired';
    } catch (err) {
      if (isMissing(err)) return 'expired';
      if (!isRefusal(err)) {
        throw new PaymentProviderError(`Stripe did not expire session ${id}: ${(err as Error).message}`);
      }
      // Not expirable: it expired already, or the customer completed it first.
      const state = await this.retrieveSession(id);
      return state.status === 'complete' ? 'complete' : 'expired';
    }
  }

  async refund(input: NewRefund): Promise<ProviderRefund> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toRefund(refund);
    } catch (err) {
      const message = `Stripe did not refund: ${(err as Error).message}`;
      throw isRefusal(err) ? new RefundRefusedError(message) : new PaymentProviderError(message);
    }
  }

  async listRefunds(paymentIntentId: string): Promise<ProviderRefund[]> {
    try {
      const out: ProviderRefund[] = [];
      for await (const r of this.stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
        out.push(toRefund(r));
      }
      return out;
    } catch (err) {
      throw new PaymentProviderError(`Stripe did not list the refunds: ${(err as Error).message}`);
    }
  }

  async customerFor(user: CustomerOf, known: string | null) {
    if (known) return known;
    try {
      const customer = await this.stripe.customers.create(
        { email: user.email, name: user.username, metadata: { userId: String(user.id) } },
        // Two checkouts at once make one Customer.
        { idempotencyKey: user.idempotencyKey },
      );
      return customer.id;
    } catch (err) {
      throw new PaymentProviderError(`Stripe did not make the customer: ${(err as Error).message}`);
    }
  }
}
