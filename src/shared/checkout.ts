import { z } from 'zod';
import { checkoutAddress } from './address.ts';
import { MAX_CART_LINES } from './cart.ts';
import { shippingOffer, shipToCountry, TAX_MODES } from './shipping.ts';

// The checkout's payloads (docs/api.md), shared by the server's routes and the client's pages.

/** POST /api/cart/quote: the server's prices of the cart's lines, so the cart shows what will be charged. */
export const cartQuoteRequest = z.object({
  items: z
    .array(
      z.object({
        modelId: z.string().max(64),
        /** The cart's name for the line: a line that cannot be ordered is named by it. */
        fileName: z.string().max(255).optional(),
        color: z.string().max(32),
        strength: z.number(),
        quantity: z.number(),
      }),
    )
    .min(1, 'Your cart is empty.')
    .max(MAX_CART_LINES, `A cart holds at most ${MAX_CART_LINES} lines.`),
  /** Where the cart ships: its methods and dates. Omitted: the account's last order's country, else US. */
  shipTo: shipToCountry.optional(),
});
export type CartQuoteRequest = z.infer<typeof cartQuoteRequest>;

export const pricedCartLine = z.object({
  /** Dollars, 2 decimals: one piece. */
  unitPrice: z.number(),
  /** Dollars: unit x quantity less the quantity discount; what the checkout charges for the line. */
  lineTotal: z.number(),
  discountPercent: z.number(),
});
export type PricedCartLine = z.infer<typeof pricedCartLine>;

export const cartQuotePayload = z.object({
  currency: z.literal('usd'),
  /** One entry per requested line, in order: its price, or why it cannot be ordered. */
  lines: z.array(z.union([pricedCartLine, z.object({ error: z.string() })])),
  /** Dollars: the sum of the lines that can be ordered (the items' subtotal, before shipping and tax). */
  total: z.number(),
  /**
   * Where it ships and the methods offered for these lines, first preselected on the hosted page, each with
   * this cart's price (free from its threshold) and dates; null when no line can be ordered.
   */
  shipping: z.object({ shipTo: shipToCountry, options: z.array(shippingOffer) }).nullable(),
  /** How taxes are handled at checkout (src/shared/shipping.ts TAX_WORDS). */
  tax: z.enum(TAX_MODES),
});
export type CartQuotePayload = z.infer<typeof cartQuotePayload>;

/** POST /api/create-checkout-session.php answers the payment session to send the browser to. */
export const checkoutSessionPayload = z.object({ id: z.string(), url: z.string() });
export type CheckoutSessionPayload = z.infer<typeof checkoutSessionPayload>;

/**
 * GET /api/checkout/status?session_id= : the caller's order behind a payment session, after asking the
 * provider. `items` are the lines the order holds, so a paid order's lines (and only those) leave the cart.
 */
export const checkoutStatusPayload = z.object({
  orderId: z.number(),
  status: z.string(),
  testMode: z.boolean(),
  items: z.array(
    z.object({
      modelId: z.string().nullable(),
      color: z.string(),
      strength: z.number(),
      quantity: z.number(),
    }),
  ),
});
export type CheckoutStatusPayload = z.infer<typeof checkoutStatusPayload>;

/** GET /api/pay/simulator/:sessionId : what the simulator's hosted page shows. */
export const simulatorSessionPayload = z.object({
  id: z.string(),
  shopName: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  currency: z.string(),
  /** Dollars. */
  total: z.number(),
  lines: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      imageUrl: z.string().nullable(),
      /** Dollars. */
      amount: z.number(),
    }),
  ),
  /** Dollars: the items, before shipping. */
  subtotal: z.number(),
  /** The only country the address may be in (the cart's 'Ship to'). */
  shipTo: shipToCountry,
  /** The methods offered, first preselected, as Stripe shows them: price and business days to arrival. */
  shippingOptions: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      /** Dollars. */
      amount: z.number(),
      /** Business days from now to arrival (production included). */
      minDays: z.number(),
      maxDays: z.number(),
    }),
  ),
  cancelUrl: z.string(),
  /** Where a completed session sends the browser (the success page with the session id). */
  successUrl: z.string(),
  expiresAt: z.string(),
  /**
   * The name and address of the customer's last paid order, to fill the form in (editable); only for the
   * order's own customer (their session cookie), as Stripe prefills a known customer.
   */
  prefill: z
    .object({
      name: z.string(),
      line1: z.string(),
      line2: z.string(),
      city: z.string(),
      state: z.string(),
      postalCode: z.string(),
      country: z.string(),
    })
    .nullable(),
});
export type SimulatorSessionPayload = z.infer<typeof simulatorSessionPayload>;

export const CARD_MSG = {
  number: 'Enter a card number: in test mode, 4242 4242 4242 4242.',
  expiry: 'Enter the expiry as MM / YY, in the future.',
  cvc: 'Enter the 3 or 4 digit security code.',
} as const;

export const simulatorCard = z.object({
  number: z
    .string()
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, CARD_MSG.number)),
  /** 'MM / YY' or 'MM/YY'; checked against the clock on the server. */
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2]) ?\/ ?\d{2}$/, CARD_MSG.expiry),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, CARD_MSG.cvc),
});

/** POST /api/pay/simulator/:sessionId/pay */
export const simulatorPayRequest = z.object({
  card: simulatorCard,
  shipping: checkoutAddress,
  /** The chosen shipping method's id (one of the session's shippingOptions). */
  shippingOption: z.string().max(40),
});
export type SimulatorPayInput = z.input<typeof simulatorPayRequest>;

/** The pay call's answer: where to send the browser; a refusal is `{ error, field? }` (400, 402, 409). */
export const simulatorPayPayload = z.object({ redirectUrl: z.string() });

/** Which form field a refused pay call is about (`card.number`, `shipping.postalCode`, ...). */
export const payErrorPayload = z.object({ error: z.string(), field: z.string().optional() });
