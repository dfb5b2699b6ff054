import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { regionsOf, SHIPPING_COUNTRY_NAMES, type ShippingCountry } from '../../shared/address.ts';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { formatMoney } from '../../shared/format.ts';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { leavePage } from './leave.ts';
import { PayField } from './PayField.tsx';
import { fetchSession, PAY_PAGE_MSG, paySession, type SessionOutcome } from './simulator-api.ts';
import {
  checkPayForm,
  EMPTY_FORM,
  FIELD_PATHS,
  type FieldErrors,
  type FieldPath,
  formatCardNumber,
  formatExpiry,
  type PayForm,
  withCountry,
} from './simulator-form.ts';
import './simulator.css';

// The payment simulator's hosted page (/pay/simulator/:sessionId): a stand-in for Stripe's checkout page,
// outside the shop's layout. Pay goes through the same fulfilment as Stripe's events.

function TestModeBanner() {
  return (
    <div className="sim-banner" role="note">
      <strong>TEST MODE</strong> This is the shop's payment simulator: no card is charged and no money moves.
    </div>
  );
}

/** An expired, completed or unknown session: a clear message and a way back. */
function Closed({
  title,
  text,
  href,
  action,
}: {
  title: string;
  text: string;
  href: string;
  action: string;
}) {
  return (
    <div className="sim-closed card">
      <h1>{title}</h1>
      <p>{text}</p>
      <a className="button button-primary" href={href}>
        {action}
      </a>
    </div>
  );
}

function Summary({ session }: { session: SimulatorSessionPayload }) {
  const currency = session.currency.toUpperCase();
  return (
    <section className="sim-summary" aria-labelledby="sim-shop">
      <p className="sim-shop" id="sim-shop">
        {session.shopName}
      </p>
      <p className="sim-pay-label">Pay {session.shopName}</p>
      <p className="sim-amount" data-testid="sim-total">
        {formatMoney(session.total)} <span className="sim-currency">{currency}</span>
      </p>
      <ul className="sim-lines" aria-label="Order summary">
        {session.lines.map((line, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines never reorder; two may share a name.
          <li key={n} className="sim-line">
            <span className="sim-thumb">
              {line.imageUrl ? (
                <img src={line.imageUrl} alt={`Preview of ${line.name}`} width="56" height="56" />
              ) : (
                <span className="no-preview">No Preview</span>
              )}
            </span>
            <span className="sim-line-text">
              <span className="sim-line-name">{line.name}</span>
              {line.description && <span className="sim-line-desc">{line.description}</span>}
            </span>
            <span className="sim-line-amount">{formatMoney(line.amount)}</span>
          </li>
        ))}
      </ul>
      <p className="sim-total-row">
        <span>Total due</span>
        <strong>
          {formatMoney(session.total)} {currency}
        </strong>
      </p>
    </section>
  );
}

function PayFormView({ session, onClosed }: { session: SimulatorSessionPayload; onClosed: () => void }) {
  const [form, setForm] = useState<PayForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [formErrorField, setFormErrorField] = useState<FieldPath | null>(null);
  const [paying, setPaying] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = (key: keyof PayForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    const path = FIELD_PATHS[key];
    if (errors[path]) setErrors(({ [path]: _, ...rest }) => rest);
    if (formErrorField === path) setFormErrorField(null);
  };

  const focusFirstError = () =>
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );

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
      if (outcome.status === 409) onClosed();
    }
  }

  const regions = regionsOf(form.country);
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
        <PayField
          label="Country"
          as="select"
          autoComplete="shipping country"
          onChange={(v) => {
            setForm((f) => withCountry(f, v as ShippingCountry));
            setErrors(({ 'shipping.state': _s, 'shipping.postalCode': _p, ...rest }) => rest);
          }}
          {...fieldProps('country')}
        >
          {Object.entries(SHIPPING_COUNTRY_NAMES).map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
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
            `Pay ${formatMoney(session.total)}`
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

export default function SimulatorPage() {
  const { sessionId = '' } = useParams();
  const [state, setState] = useState<SessionOutcome | null>(null);
  const [reloads, setReloads] = useState(0);
  useDocumentTitle('Checkout (test mode)');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` asks again after a 409.
  useEffect(() => {
    const controller = new AbortController();
    fetchSession(sessionId, controller.signal).then((outcome) => {
      if (!controller.signal.aborted) setState(outcome);
    });
    return () => controller.abort();
  }, [sessionId, reloads]);

  let body: ReactNode;
  if (state === null) {
    body = (
      <p className="loading" role="status">
        {PAY_PAGE_MSG.loading}
      </p>
    );
  } else if (!state.ok) {
    body = <Closed title="Checkout unavailable" text={state.error} href="/" action="Back to the shop" />;
  } else if (state.value.status === 'expired') {
    body = (
      <Closed
        title="This checkout has expired"
        text={PAY_PAGE_MSG.expired}
        href="/#cart-section"
        action="Back to your cart"
      />
    );
  } else if (state.value.status === 'complete') {
    body = (
      <Closed
        title="This checkout is paid"
        text={PAY_PAGE_MSG.complete}
        href={state.value.successUrl}
        action="See your order"
      />
    );
  } else {
    body = (
      <div className="sim-layout">
        <Summary session={state.value} />
        <PayFormView session={state.value} onClosed={() => setReloads((n) => n + 1)} />
      </div>
    );
  }

  return (
    <div className="sim-page">
      <TestModeBanner />
      <main className="sim-main">{body}</main>
    </div>
  );
}
