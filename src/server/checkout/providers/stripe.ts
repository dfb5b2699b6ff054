import Stripe from 'stripe';
import { shippingAddress } from '../../../shared/address.ts';
import { SHIPPING_COUNTRIES } from '../../../shared/catalog.ts';
import type { Config } from '../../config.ts';
import {
  type CreatedSession,
  type NewSession,
  type PaymentProvider,
  PaymentProviderError,
  type SessionState,
} from '../payment-provider.ts';

// Stripe Checkout (hosted page) through stripe-node. Every line is sent as one item of quantity 1 priced
// at the server's line total, so a quantity discount is charged exactly as the cart showed it and the
// session's amount_total equals the order's total to the cent.

export type StripeSettings = NonNullable<Config['stripe']>;

/** stripe-node pointed at Stripe, or at STRIPE_API_BASE (a local stub in tests, stripe-mock, a proxy). */
export function stripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
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

/** `value` when it is one of `known`, else `fallback` (Stripe may add values to its enums). */
function oneOf<T extends string, F extends string>(
  value: string | null,
  known: readonly T[],
  fallback: F,
): T | F {
  return known.find((k) => k === value) ?? fallback;
}

function toState(s: Stripe.Checkout.Session): SessionState {
  const details = s.collected_information?.shipping_details ?? null;
  const address = details?.address;
  const shipping = address
    ? shippingAddress.safeParse({
        name: details?.name ?? '',
        line1: address.line1 ?? '',
        line2: address.line2 ?? '',
        city: address.city ?? '',
        state: address.state ?? '',
        postalCode: address.postal_code ?? '',
        country: address.country ?? '',
      })
    : null;
  const orderId = Number(s.client_reference_id ?? s.metadata?.orderId);
  return {
    id: s.id,
    // Stripe may add values: anything unknown reads as not finished and not paid.
    status: oneOf(s.status, ['complete', 'expired'] as const, 'open'),
    paymentStatus: oneOf(s.payment_status, ['paid', 'no_payment_required'] as const, 'unpaid'),
    amountTotalCents: s.amount_total,
    currency: s.currency,
    paymentIntentId: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
    shipping: shipping?.success ? shipping.data : null,
    orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
  };
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;

  constructor(settings: StripeSettings) {
    this.stripe = stripeClient(settings);
  }

  async createSession(input: NewSession): Promise<CreatedSession> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: String(input.orderId),
          metadata: { orderId: String(input.orderId) },
          customer_email: input.customerEmail,
          line_items: input.lines.map((l) => ({
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: l.amountCents,
              product_data: {
                name: l.name,
                description: l.description,
                ...(l.imageUrl ? { images: [l.imageUrl] } : {}),
              },
            },
          })),
          shipping_address_collection: { allowed_countries: [...SHIPPING_COUNTRIES] },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        },
        // One order, one session: a retried request cannot open a second one.
        { idempotencyKey: `shop-order-${input.orderId}` },
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
      return toState(await this.stripe.checkout.sessions.retrieve(id));
    } catch (err) {
      throw new PaymentProviderError(`Stripe did not answer for session ${id}: ${(err as Error).message}`);
    }
  }
}
