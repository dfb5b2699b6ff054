import { describe, expect, it } from 'vitest';
import { ADDRESS_MSG } from '../../shared/address.ts';
import { CARD_MSG } from '../../shared/checkout.ts';
import {
  checkPayForm,
  EMPTY_FORM,
  expiryInFuture,
  formatCardNumber,
  formatExpiry,
  initialForm,
  type PayForm,
  withCountry,
} from './simulator-form.ts';

const NOW = new Date(2026, 10, 25);

const filled: PayForm = {
  ...EMPTY_FORM,
  name: 'Ada Lovelace',
  line1: '1 Capitol Square',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
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

  it('answers the request to send: digits only in the card number, line 2 empty', () => {
    const checked = checkPayForm(filled, NOW);
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
      },
    });
  });

  it('checks the postal code and the province of Canada', () => {
    const ca = withCountry(filled, 'CA');
    expect(ca.state).toBe('');
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

  it('keeps a state the new country also has, and clears one it has not', () => {
    expect(withCountry({ ...filled, state: 'WI' }, 'US').state).toBe('WI');
    expect(withCountry({ ...filled, state: 'WI' }, 'CA')).toMatchObject({ country: 'CA', state: '' });
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

  it('fills the name and address, never the card; none without a prefill', () => {
    expect(initialForm(null)).toEqual(EMPTY_FORM);
    expect(initialForm(undefined)).toEqual(EMPTY_FORM);
    const form = initialForm(prefill);
    expect(form).toEqual({ ...EMPTY_FORM, ...prefill, country: 'US' });
    expect(
      checkPayForm({ ...form, cardNumber: '4242 4242 4242 4242', expiry: '12 / 39', cvc: '123' }, NOW).ok,
    ).toBe(true);
  });

  it('keeps a military or territory region, drops one the country does not have, ignores another country', () => {
    expect(initialForm({ ...prefill, state: 'AE', postalCode: '09001' }).state).toBe('AE');
    expect(initialForm({ ...prefill, state: 'ON' }).state).toBe('');
    expect(initialForm({ ...prefill, country: 'CA', state: 'ON', postalCode: 'K1A 0B1' })).toMatchObject({
      country: 'CA',
      state: 'ON',
    });
    expect(initialForm({ ...prefill, country: 'MX' })).toEqual(EMPTY_FORM);
  });

  it('a changed country keeps a region Stripe Checkout offers for it', () => {
    expect(withCountry({ ...filled, state: 'GU' }, 'US').state).toBe('GU');
    expect(withCountry({ ...filled, state: 'GU' }, 'CA').state).toBe('');
  });
});
