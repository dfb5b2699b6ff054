import { describe, expect, it } from 'vitest';
import { ADDRESS_MSG } from '../../shared/address.ts';
import { CARD_MSG } from '../../shared/checkout.ts';
import {
  addressPrefilled,
  businessDaysText,
  checkPayForm,
  chosenOption,
  EMPTY_FORM,
  expiryInFuture,
  formatCardNumber,
  formatExpiry,
  initialForm,
  type PayForm,
  totalDue,
} from './simulator-form.ts';

const NOW = new Date(2026, 10, 25);

const US_OPTIONS = [
  { id: 'us-standard', name: 'US Standard', amount: 6.95, minDays: 6, maxDays: 8 },
  { id: 'us-expedited', name: 'US Expedited', amount: 19.95, minDays: 4, maxDays: 5 },
];
const CA_OPTIONS = [
  { id: 'ca-standard', name: 'Canada Standard', amount: 14.95, minDays: 8, maxDays: 11 },
  { id: 'ca-expedited', name: 'Canada Expedited', amount: 34.95, minDays: 5, maxDays: 7 },
];
const US = { prefill: null, shipTo: 'US', shippingOptions: US_OPTIONS } as const;
const CA = { prefill: null, shipTo: 'CA', shippingOptions: CA_OPTIONS } as const;

const filled: PayForm = {
  ...EMPTY_FORM,
  name: 'Ada Lovelace',
  line1: '1 Capitol Square',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
  shippingOption: 'us-standard',
  cardNumber: '4242 4242 4242 4242',
  expiry: '12 / 39',
  cvc: '123',
};

describe('checkPayForm (the shared zod schema, before anything is sent)', () => {
  it('names every missing field by its request path, with the schema messages', () => {
    const checked = checkPayForm(EMPTY_FORM, NOW);
    expect(checked).toEqual({
      ok: false,
      errors: {
        'shipping.name': ADDRESS_MSG.name,
        'shipping.line1': ADDRESS_MSG.line1,
        'shipping.city': ADDRESS_MSG.city,
        'shipping.state': ADDRESS_MSG.state,
        'shipping.postalCode': ADDRESS_MSG.zip,
        'card.number': CARD_MSG.number,
        'card.expiry': CARD_MSG.expiry,
        'card.cvc': CARD_MSG.cvc,
      },
    });
  });

  it('answers the request to send: digits only in the card number, line 2 empty, the chosen method', () => {
    const checked = checkPayForm({ ...filled, shippingOption: 'us-expedited' }, NOW);
    expect(checked).toEqual({
      ok: true,
      value: {
        card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
        shipping: {
          name: 'Ada Lovelace',
          line1: '1 Capitol Square',
          line2: '',
          city: 'Madison',
          state: 'WI',
          postalCode: '53703',
          country: 'US',
        },
        shippingOption: 'us-expedited',
      },
    });
  });

  it('sends no method for a session that offers none (the server decides)', () => {
    const checked = checkPayForm({ ...filled, shippingOption: '' }, NOW);
    expect(checked.ok && checked.value.shippingOption).toBe('');
  });

  it('checks the postal code and the province of Canada', () => {
    const ca = { ...filled, country: 'CA', state: 'WI', shippingOption: 'ca-standard' } as const;
    expect(checkPayForm(ca, NOW)).toEqual({
      ok: false,
      errors: { 'shipping.state': ADDRESS_MSG.province, 'shipping.postalCode': ADDRESS_MSG.postal },
    });
    const ok = checkPayForm({ ...ca, state: 'ON', postalCode: 'k1a0b1' }, NOW);
    expect(ok.ok && ok.value.shipping).toMatchObject({ state: 'ON', postalCode: 'K1A 0B1', country: 'CA' });
  });

  it('refuses a card that expired before this month', () => {
    expect(checkPayForm({ ...filled, expiry: '10 / 26' }, NOW)).toEqual({
      ok: false,
      errors: { 'card.expiry': CARD_MSG.expiry },
    });
    expect(checkPayForm({ ...filled, expiry: '11 / 26' }, NOW).ok).toBe(true);
    expect(expiryInFuture('11 / 26', new Date(2026, 11, 1))).toBe(false);
  });
});

describe('formatting as typed', () => {
  it('groups card digits by four and drops the rest', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 ')).toBe('4242');
    expect(formatCardNumber('4000-0000-0000-0002')).toBe('4000 0000 0000 0002');
  });

  it('writes the expiry as MM / YY, and a deleted slash takes its place back', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12 / 3');
    expect(formatExpiry('12/34')).toBe('12 / 34');
    expect(formatExpiry('12 / ')).toBe('12');
    expect(formatExpiry('12 / 345')).toBe('12 / 34');
  });
});

describe('the shipping choice (as Stripe Checkout shows it)', () => {
  it('words the delivery estimate in business days', () => {
    expect(businessDaysText(3, 5)).toBe('Arrives in 3–5 business days');
    expect(businessDaysText(2, 2)).toBe('Arrives in 2 business days');
    expect(businessDaysText(1, 1)).toBe('Arrives in 1 business day');
  });

  it('chooses the method by id, else the first; none when none is offered', () => {
    expect(chosenOption(US_OPTIONS, 'us-expedited')?.id).toBe('us-expedited');
    expect(chosenOption(US_OPTIONS, 'ca-standard')?.id).toBe('us-standard');
    expect(chosenOption(US_OPTIONS, '')?.id).toBe('us-standard');
    expect(chosenOption([], 'us-standard')).toBeUndefined();
  });

  it('adds the chosen method to the items in cents; the session total without a method', () => {
    const session = { subtotal: 225.37, total: 232.32 };
    expect(totalDue(session, US_OPTIONS[0])).toBe(232.32);
    expect(totalDue(session, US_OPTIONS[1])).toBe(245.32);
    expect(totalDue({ subtotal: 0.1, total: 0 }, { ...US_OPTIONS[0]!, amount: 0.2 })).toBe(0.3);
    expect(totalDue(session, { ...US_OPTIONS[0]!, amount: 0 })).toBe(225.37);
    expect(totalDue(session, undefined)).toBe(232.32);
  });
});

describe("initialForm (the customer's last address, filled in)", () => {
  const prefill = {
    name: 'Ada Lovelace',
    line1: '1 Capitol Square',
    line2: '',
    city: 'Madison',
    state: 'WI',
    postalCode: '53703',
    country: 'US',
  };

  it('fixes the country to the session, preselects the first method; nothing else without a prefill', () => {
    expect(initialForm(US)).toEqual({ ...EMPTY_FORM, country: 'US', shippingOption: 'us-standard' });
    expect(initialForm(CA)).toEqual({ ...EMPTY_FORM, country: 'CA', shippingOption: 'ca-standard' });
    expect(initialForm({ ...US, shippingOptions: [] }).shippingOption).toBe('');
  });

  it('fills the name and address, never the card', () => {
    const form = initialForm({ ...US, prefill });
    expect(form).toEqual({ ...EMPTY_FORM, ...prefill, country: 'US', shippingOption: 'us-standard' });
    expect(addressPrefilled({ ...US, prefill })).toBe(true);
    expect(
      checkPayForm({ ...form, cardNumber: '4242 4242 4242 4242', expiry: '12 / 39', cvc: '123' }, NOW).ok,
    ).toBe(true);
  });

  it('keeps a military or territory region, drops one the country does not have', () => {
    expect(initialForm({ ...US, prefill: { ...prefill, state: 'AE', postalCode: '09001' } }).state).toBe(
      'AE',
    );
    expect(initialForm({ ...US, prefill: { ...prefill, state: 'GU' } }).state).toBe('GU');
    expect(initialForm({ ...US, prefill: { ...prefill, state: 'ON' } }).state).toBe('');
    const ca = { ...prefill, country: 'CA', state: 'ON', postalCode: 'K1A 0B1' };
    expect(initialForm({ ...CA, prefill: ca })).toMatchObject({ country: 'CA', state: 'ON' });
    expect(initialForm({ ...CA, prefill: { ...ca, state: 'GU' } }).state).toBe('');
  });

  it('a last address in another country fills in the name only, the country stays the session’s', () => {
    for (const other of ['US', 'MX']) {
      const form = initialForm({ ...CA, prefill: { ...prefill, country: other } });
      expect(form).toEqual({
        ...EMPTY_FORM,
        name: 'Ada Lovelace',
        country: 'CA',
        shippingOption: 'ca-standard',
      });
      expect(addressPrefilled({ ...CA, prefill: { ...prefill, country: other } })).toBe(false);
    }
  });
});
