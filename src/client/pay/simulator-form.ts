import { checkoutRegionsOf, type ShippingCountry } from '../../shared/address.ts';
import {
  CARD_MSG,
  type SimulatorPayInput,
  type SimulatorSessionPayload,
  simulatorPayRequest,
} from '../../shared/checkout.ts';

// The simulator's payment form: its fields as typed, checked with the same zod schema the server uses; and
// the shipping choice's words and the total it makes, as Stripe Checkout shows them.

export type PayForm = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  /** Always the session's `shipTo`: the only country the address may be in (Stripe's allowed_countries). */
  country: ShippingCountry;
  /**
   * The chosen shipping method's id (one of the session's `shippingOptions`; the first is preselected);
   * '' for a session that offers none (made before shipping methods), which the server takes as it is.
   */
  shippingOption: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
};

/** A form field by the request path the schema (and the server's `field`) names it with. */
export const FIELD_PATHS = {
  name: 'shipping.name',
  line1: 'shipping.line1',
  line2: 'shipping.line2',
  city: 'shipping.city',
  state: 'shipping.state',
  postalCode: 'shipping.postalCode',
  country: 'shipping.country',
  shippingOption: 'shippingOption',
  cardNumber: 'card.number',
  expiry: 'card.expiry',
  cvc: 'card.cvc',
} as const satisfies Record<keyof PayForm, string>;

export type FieldPath = (typeof FIELD_PATHS)[keyof PayForm];
export type FieldErrors = Partial<Record<FieldPath, string>>;

export const EMPTY_FORM: PayForm = {
  name: '',
  line1: '',
  line2: '',
  city: '',
  state: '',
  postalCode: '',
  country: 'US',
  shippingOption: '',
  cardNumber: '',
  expiry: '',
  cvc: '',
};

export type ShippingOption = SimulatorSessionPayload['shippingOptions'][number];
type FormSession = Pick<SimulatorSessionPayload, 'prefill' | 'shipTo' | 'shippingOptions'>;

/**
 * The form as it opens: the country fixed to the session's `shipTo`, the first shipping method chosen, and
 * the customer's last shipping name and address when the session brings one (all editable). A state the
 * country's list does not offer is left to choose. A last address in another country than this checkout
 * ships to fills in the name only: its street, city, region and code belong to that other country and
 * would have to be typed over anyway (the person is the same, the address is not). The card is never filled.
 */
export function initialForm(session: FormSession): PayForm {
  const base: PayForm = {
    ...EMPTY_FORM,
    country: session.shipTo,
    shippingOption: session.shippingOptions[0]?.id ?? '',
  };
  const prefill = session.prefill;
  if (!prefill) return base;
  if (prefill.country !== session.shipTo) return { ...base, name: prefill.name };
  const state = Object.hasOwn(checkoutRegionsOf(session.shipTo), prefill.state) ? prefill.state : '';
  return {
    ...base,
    name: prefill.name,
    line1: prefill.line1,
    line2: prefill.line2,
    city: prefill.city,
    state,
    postalCode: prefill.postalCode,
  };
}

/** Whether the whole address was filled in from the customer's last one (only the card is left to type). */
export function addressPrefilled(session: FormSession): boolean {
  return session.prefill !== null && session.prefill.country === session.shipTo;
}

export function toPayInput(form: PayForm): SimulatorPayInput {
  return {
    card: { number: form.cardNumber, expiry: form.expiry, cvc: form.cvc },
    shipping: {
      name: form.name,
      line1: form.line1,
      line2: form.line2,
      city: form.city,
      state: form.state,
      postalCode: form.postalCode,
      country: form.country,
    },
    shippingOption: form.shippingOption,
  };
}

/** 'MM / YY' still valid this month (cards run through the last day of their month). */
export function expiryInFuture(expiry: string, now: Date): boolean {
  const [mm, yy] = expiry.split('/').map((p) => Number(p.trim()));
  if (!mm || yy === undefined || Number.isNaN(yy)) return false;
  return new Date(2000 + yy, mm, 1).getTime() > now.getTime();
}

const isFieldPath = (p: string): p is FieldPath => (Object.values(FIELD_PATHS) as string[]).includes(p);

export type Checked = { ok: true; value: SimulatorPayInput } | { ok: false; errors: FieldErrors };

/** Every field's first problem, or the request to send. */
export function checkPayForm(form: PayForm, now = new Date()): Checked {
  const result = simulatorPayRequest.safeParse(toPayInput(form));
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (isFieldPath(path) && !errors[path]) errors[path] = issue.message;
    }
  } else if (!expiryInFuture(result.data.card.expiry, now)) {
    errors['card.expiry'] = CARD_MSG.expiry;
  }
  if (Object.keys(errors).length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, value: result.data };
}

/** Digits in groups of four as they are typed: '4242424242424242' -> '4242 4242 4242 4242'. */
export function formatCardNumber(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** 'MM / YY' as it is typed: '1' -> '1', '123' -> '12 / 3'; deleting past the slash removes it. */
export function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** A method's delivery estimate as Stripe Checkout words it: '3–5 business days', '2 business days'. */
export function businessDaysText(minDays: number, maxDays: number): string {
  // Printing included: the cart's "in transit" days are the carrier's part of this.
  if (minDays === maxDays) return `Arrives in ${minDays} business ${minDays === 1 ? 'day' : 'days'}`;
  return `Arrives in ${minDays}–${maxDays} business days`;
}

/** The chosen method: the one with this id, else the first (preselected); undefined when none is offered. */
export function chosenOption(options: readonly ShippingOption[], id: string): ShippingOption | undefined {
  return options.find((o) => o.id === id) ?? options[0];
}

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * Dollars due: the items' subtotal and the chosen method's price, added in cents (the simulator charges no
 * tax); the session's own total when it offers no method.
 */
export function totalDue(
  session: Pick<SimulatorSessionPayload, 'subtotal' | 'total'>,
  option: ShippingOption | undefined,
): number {
  if (!option) return session.total;
  return (cents(session.subtotal) + cents(option.amount)) / 100;
}
