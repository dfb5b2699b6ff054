import { checkoutRegionsOf, SHIPPING_COUNTRY_NAMES, type ShippingCountry } from '../../shared/address.ts';
import {
  CARD_MSG,
  type SimulatorPayInput,
  type SimulatorSessionPayload,
  simulatorPayRequest,
} from '../../shared/checkout.ts';

// The simulator's payment form: its fields as typed, checked with the same zod schema the server uses.

export type PayForm = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: ShippingCountry;
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
  cardNumber: '',
  expiry: '',
  cvc: '',
};

const isCountry = (c: string): c is ShippingCountry => Object.hasOwn(SHIPPING_COUNTRY_NAMES, c);

/**
 * The form as it opens: the customer's last shipping name and address when the session brings one (all
 * editable), else empty; a state the country's list does not offer is left to choose. The card is never
 * filled in.
 */
export function initialForm(prefill: SimulatorSessionPayload['prefill'] | undefined): PayForm {
  if (!prefill || !isCountry(prefill.country)) return EMPTY_FORM;
  const state = Object.hasOwn(checkoutRegionsOf(prefill.country), prefill.state) ? prefill.state : '';
  return {
    ...EMPTY_FORM,
    name: prefill.name,
    line1: prefill.line1,
    line2: prefill.line2,
    city: prefill.city,
    state,
    postalCode: prefill.postalCode,
    country: prefill.country,
  };
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

/** The country changed: keep the state only if the new country has it. */
export function withCountry(form: PayForm, country: ShippingCountry): PayForm {
  const state = Object.hasOwn(checkoutRegionsOf(country), form.state) ? form.state : '';
  return { ...form, country, state };
}
