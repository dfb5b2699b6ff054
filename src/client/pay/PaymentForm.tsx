import { type Dispatch, type FormEvent, type SetStateAction, useEffect, useRef, useState } from 'react';
import { checkoutRegionsOf, SHIPPING_COUNTRY_NAMES } from '../../shared/address.ts';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { formatMoney } from '../../shared/format.ts';
import { leavePage } from './leave.ts';
import { PayField } from './PayField.tsx';
import { ShippingOptions } from './ShippingOptions.tsx';
import { paySession } from './simulator-api.ts';
import {
  addressPrefilled,
  checkPayForm,
  FIELD_PATHS,
  type FieldErrors,
  type FieldPath,
  formatCardNumber,
  formatExpiry,
  type PayForm,
} from './simulator-form.ts';

// The simulator's payment form: checked with the shared schema before sending; the server's refusals shown
// on their field (400) or above the Pay button (402 declined, 409 expired or paid).

/**
 * The shipping address, shipping method and card of one open session; Pay, Cancel, and what the server said.
 * The form's values are the page's (`form`, `setForm`): the order summary shows the chosen method and total.
 * `total` is what Pay charges: the items and the chosen method.
 */
export function PaymentForm({
  session,
  form,
  setForm,
  total,
  onClosed,
}: {
  session: SimulatorSessionPayload;
  form: PayForm;
  setForm: Dispatch<SetStateAction<PayForm>>;
  total: number;
  onClosed: () => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [formErrorField, setFormErrorField] = useState<FieldPath | null>(null);
  const [paying, setPaying] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // A returning customer's address is filled in: the cursor starts in the card number, as on Stripe's page.
  const prefilled = addressPrefilled(session);
  useEffect(() => {
    if (!prefilled) return;
    const card = formRef.current?.elements.namedItem(FIELD_PATHS.cardNumber);
    if (card instanceof HTMLInputElement) card.focus();
  }, [prefilled]);

  // Back here from the success page (the back/forward cache): usable again, and the session asked anew.
  useEffect(() => {
    const restored = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      setPaying(false);
      onClosed();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [onClosed]);

  const set = (key: keyof PayForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    const path = FIELD_PATHS[key];
    if (errors[path]) setErrors(({ [path]: _, ...rest }) => rest);
    if (formErrorField === path) setFormErrorField(null);
  };

  // A refused shipping method: the focus goes to the chosen radio, not the group's first.
  const focusFirstError = () =>
    requestAnimationFrame(() => {
      const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      const chosen =
        first instanceof HTMLInputElement && first.type === 'radio'
          ? formRef.current?.querySelector<HTMLElement>(`input[name="${first.name}"]:checked`)
          : null;
      (chosen ?? first)?.focus();
    });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (paying) return;
    setFormError('');
    setFormErrorField(null);
    const checked = checkPayForm(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstError();
      return;
    }
    setErrors({});
    setPaying(true);
    const outcome = await paySession(session.id, checked.value);
    if (outcome.ok) {
      // Stay busy while the browser leaves for the success page.
      leavePage(outcome.redirectUrl);
      return;
    }
    setPaying(false);
    const field =
      outcome.field && Object.values(FIELD_PATHS).includes(outcome.field as FieldPath)
        ? (outcome.field as FieldPath)
        : null;
    if (outcome.status === 400 && field) {
      setErrors({ [field]: outcome.error });
      focusFirstError();
    } else {
      setFormError(outcome.error);
      setFormErrorField(field);
      if (field) focusFirstError();
      if (outcome.status === 409) onClosed();
    }
  }

  // The regions Stripe Checkout offers for the one country this checkout ships to (its `shipTo`): the
  // states, DC, PR, the territories and APO/FPO; or Canada's provinces and territories.
  const regions = checkoutRegionsOf(form.country);
  const isCa = form.country === 'CA';
  const fieldProps = (key: keyof PayForm) => {
    const path = FIELD_PATHS[key];
    return {
      name: path,
      value: form[key],
      error: errors[path],
      alsoDescribedBy: formErrorField === path ? 'sim-form-error' : undefined,
    };
  };

  return (
    <form ref={formRef} className="sim-form" noValidate onSubmit={submit} aria-labelledby="sim-form-title">
      <h1 id="sim-form-title" className="visually-hidden">
        Pay {session.shopName}
      </h1>
      <fieldset disabled={paying} className="sim-group">
        <legend>Shipping address</legend>
        <PayField
          label="Full name"
          autoComplete="shipping name"
          onChange={(v) => set('name', v)}
          {...fieldProps('name')}
        />
        {/* Fixed to the country chosen in the cart, as Stripe limits allowed_countries: one option. */}
        <PayField
          label="Country"
          as="select"
          autoComplete="shipping country"
          onChange={() => {}}
          {...fieldProps('country')}
        >
          <option value={form.country}>{SHIPPING_COUNTRY_NAMES[form.country]}</option>
        </PayField>
        <PayField
          label="Address line 1"
          autoComplete="shipping address-line1"
          onChange={(v) => set('line1', v)}
          {...fieldProps('line1')}
        />
        <PayField
          label="Address line 2 (optional)"
          autoComplete="shipping address-line2"
          onChange={(v) => set('line2', v)}
          {...fieldProps('line2')}
        />
        <PayField
          label="City"
          autoComplete="shipping address-level2"
          onChange={(v) => set('city', v)}
          {...fieldProps('city')}
        />
        <div className="sim-row">
          <PayField
            label={isCa ? 'Province or territory' : 'State'}
            as="select"
            autoComplete="shipping address-level1"
            onChange={(v) => set('state', v)}
            {...fieldProps('state')}
          >
            <option value="">Choose…</option>
            {Object.entries(regions).map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </PayField>
          <PayField
            label={isCa ? 'Postal code' : 'ZIP code'}
            autoComplete="shipping postal-code"
            placeholder={isCa ? 'K1A 0B1' : '53703'}
            onChange={(v) => set('postalCode', v)}
            {...fieldProps('postalCode')}
          />
        </div>
      </fieldset>

      <ShippingOptions
        options={session.shippingOptions}
        value={form.shippingOption}
        onChange={(id) => set('shippingOption', id)}
        disabled={paying}
        error={errors.shippingOption}
        alsoDescribedBy={formErrorField === FIELD_PATHS.shippingOption ? 'sim-form-error' : undefined}
      />

      <fieldset disabled={paying} className="sim-group">
        <legend>Card details</legend>
        <p className="sim-test-cards" id="sim-test-cards">
          Test cards: <strong>4242 4242 4242 4242</strong> pays; <strong>4000 0000 0000 0002</strong> is
          declined. Use any future date and any 3 digits.
        </p>
        <PayField
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          hintId="sim-test-cards"
          onChange={(v) => set('cardNumber', formatCardNumber(v))}
          {...fieldProps('cardNumber')}
        />
        <div className="sim-row">
          <PayField
            label="Expiry (MM / YY)"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            onChange={(v) => set('expiry', formatExpiry(v))}
            {...fieldProps('expiry')}
          />
          <PayField
            label="CVC"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            onChange={(v) => set('cvc', v.replace(/\D/g, ''))}
            {...fieldProps('cvc')}
          />
        </div>
      </fieldset>

      {formError && (
        <div className="alert alert-error" role="alert" id="sim-form-error">
          {formError}
        </div>
      )}
      <div className="sim-actions">
        <button
          type="submit"
          className="button button-primary button-large button-block"
          disabled={paying}
          aria-busy={paying}
        >
          {paying ? (
            <>
              <span className="sim-spinner" aria-hidden="true" /> Processing payment…
            </>
          ) : (
            `Pay ${formatMoney(total)}`
          )}
        </button>
        <button
          type="button"
          className="button button-block"
          disabled={paying}
          onClick={() => leavePage(session.cancelUrl)}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
