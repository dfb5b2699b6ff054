import type { ShippingAddress } from '../../shared/address.ts';

// The one interface both payment providers implement (the README's design notes): Stripe Checkout, and the built-in
// simulator of the embedded default. The shop only ever creates a hosted session and reads one back;
// what a session says is the truth the fulfilment acts on, whoever asked (webhook, success page, reconcile).

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

export type NewSession = {
  orderId: number;
  currency: string;
  lines: SessionLine[];
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
};

export type CreatedSession = { id: string; url: string; expiresAt: Date };

/** What the shop reads of a session: the parts of a Stripe Checkout Session it needs. */
export type SessionState = {
  id: string;
  /** `complete` once the customer finished (paid, or an async payment is under way). */
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotalCents: number | null;
  currency: string | null;
  /** The provider's payment reference (a PaymentIntent id). */
  paymentIntentId: string | null;
  shipping: ShippingAddress | null;
  /** The order id the session was made for (client_reference_id). */
  orderId: number | null;
};

export interface PaymentProvider {
  readonly name: 'stripe' | 'simulator';
  createSession(input: NewSession): Promise<CreatedSession>;
  retrieveSession(id: string): Promise<SessionState>;
}

/** The provider could not be reached or refused the call: the checkout answers 502 and keeps nothing. */
export class PaymentProviderError extends Error {}
