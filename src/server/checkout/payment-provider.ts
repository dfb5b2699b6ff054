import type { ShippingAddress } from '../../shared/address.ts';
import type { ShipTo, TaxLine } from '../../shared/shipping.ts';

// The one interface both payment providers implement (the README's design notes): Stripe Checkout, and the built-in
// simulator of the embedded default. The shop creates a hosted session, reads one back, expires one that a
// newer checkout replaced, and refunds; what a session says is the truth the fulfilment acts on, whoever
// asked (webhook, success page, reconcile).

export type SessionLine = {
  /** The line's title on the hosted page (the file name). */
  name: string;
  /** Color, strength, quantity and unit price, in words. */
  description: string;
  /** An absolute URL the provider may fetch, or null. */
  imageUrl: string | null;
  /** What the line costs in all: unit x quantity less the quantity discount. */
  amountCents: number;
};

/** A shipping method as the hosted page offers it: its price for this cart and business days to arrival. */
export type SessionShippingOption = {
  /** The shop's method id (src/shared/shipping.ts): the session reads it back as the one chosen. */
  id: string;
  name: string;
  amountCents: number;
  /** Business days from the checkout to arrival, printing included (Stripe's delivery_estimate). */
  minDays: number;
  maxDays: number;
};

export type NewSession = {
  orderId: number;
  currency: string;
  lines: SessionLine[];
  /** Only addresses in this country (null: the US and Canada, for an order from before shipping methods). */
  shipTo: ShipTo | null;
  /** The methods offered, the first preselected; none: shipping is free. */
  shippingOptions: SessionShippingOption[];
  /** Who pays: their email, and their Stripe Customer when the provider keeps one (prefills the page). */
  customer: { email: string; providerCustomerId: string | null };
  /** 'Order #12 at Badger Print Co.': shown on the payment, so a refund in the provider names its order. */
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /**
   * The same for every attempt at one order's session (`<install id>:order:<id>`): a retried checkout gets the
   * session the first attempt made. Every other field must then be the same too.
   */
  idempotencyKey: string;
};

export type CreatedSession = { id: string; url: string; expiresAt: Date };

/** An address as the hosted page collected it, before the shop's own rules judged it. */
export type RawAddress = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
};

/** What the shop reads of a session: the parts of a Stripe Checkout Session it needs. */
export type SessionState = {
  id: string;
  /** `complete` once the customer finished (paid, or an async payment is under way). */
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotalCents: number | null;
  /** The parts of the total: the items, the shipping chosen and the tax the provider computed. */
  amountSubtotalCents: number | null;
  shippingCents: number | null;
  /** The shop's id of the shipping method chosen (null when none was offered). */
  shippingMethodId: string | null;
  taxCents: number | null;
  /** The tax, line by line, in the provider's words (empty without tax). */
  taxLines: TaxLine[];
  currency: string | null;
  /** The provider's payment reference (a PaymentIntent id). */
  paymentIntentId: string | null;
  /** The PaymentIntent's own status ('succeeded', 'processing', 'requires_payment_method', 'canceled'...). */
  paymentIntentStatus: string | null;
  /** The charge that took the money, for refunds and disputes. */
  chargeId: string | null;
  /** The address, when the shop's rules accept it (US and Canada, see src/shared/address.ts). */
  shipping: ShippingAddress | null;
  /** The address as collected, whatever the rules say (kept on a paid order that the rules refuse). */
  rawShipping: RawAddress | null;
  /** The order id the session was made for (client_reference_id). */
  orderId: number | null;
};

export type ProviderRefund = {
  id: string;
  amountCents: number;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed';
  paymentIntentId: string | null;
  /** What the shop attached (`refundId`, `orderId`); empty for a refund made in the provider's dashboard. */
  metadata: Record<string, string>;
};

export type NewRefund = {
  paymentIntentId: string;
  amountCents: number;
  currency: string;
  /** `<install id>:refund:<refund row id>`: a retried refund is made once. */
  idempotencyKey: string;
  metadata: Record<string, string>;
};

/** simulator: no money moves (a test order); stripe-test: Stripe's test mode; stripe-live: real money. */
export type PaymentMode = 'simulator' | 'stripe-test' | 'stripe-live';

export interface PaymentProvider {
  readonly name: 'stripe' | 'simulator';
  readonly mode: PaymentMode;
  createSession(input: NewSession): Promise<CreatedSession>;
  /** Throws SessionNotFoundError when the provider does not know the id. */
  retrieveSession(id: string): Promise<SessionState>;
  /**
   * Ends an open session so it can no longer be paid. 'complete' when it could not be ended because the
   * customer finished paying first (the caller then fulfils it); 'expired' otherwise.
   */
  expireSession(id: string): Promise<'expired' | 'complete'>;
  /** Throws RefundRefusedError when the provider refuses it for good; other errors may be retried. */
  refund(input: NewRefund): Promise<ProviderRefund>;
  /** Every refund of a payment (a dashboard refund the shop has not heard of is found here). */
  listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>;
  /** The provider's customer for an account, made on first use; null when the provider keeps none. */
  customerFor(user: CustomerOf, known: string | null): Promise<string | null>;
}

/** An account as the provider's customer: `idempotencyKey` is `<install id>:customer:<user id>`. */
export type CustomerOf = { id: number; email: string; username: string; idempotencyKey: string };

/** The provider could not be reached or refused the call: the checkout answers 502 and keeps nothing. */
export class PaymentProviderError extends Error {}

/** The provider does not know this session (a validly signed event for someone else's, or a typo). */
export class SessionNotFoundError extends PaymentProviderError {}

/** The provider refused a refund for good (more than is left, a disputed charge...): nothing was sent back. */
export class RefundRefusedError extends PaymentProviderError {}
