import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { formatMoney } from '../../shared/format.ts';
import { TAX_WORDS } from '../../shared/shipping.ts';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { PaymentForm } from './PaymentForm.tsx';
import { shippingPriceText } from './ShippingOptions.tsx';
import { fetchSession, PAY_PAGE_MSG, type SessionOutcome } from './simulator-api.ts';
import { chosenOption, initialForm, type PayForm, type ShippingOption, totalDue } from './simulator-form.ts';
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

/** The order as Stripe Checkout sums it up: the lines, the subtotal, the chosen shipping, tax and the total. */
function Summary({
  session,
  shipping,
  total,
}: {
  session: SimulatorSessionPayload;
  shipping: ShippingOption | undefined;
  total: number;
}) {
  const currency = session.currency.toUpperCase();
  return (
    <section className="sim-summary" aria-labelledby="sim-shop">
      <p className="sim-shop" id="sim-shop">
        {session.shopName}
      </p>
      <p className="sim-pay-label">Pay {session.shopName}</p>
      <p className="sim-amount" data-testid="sim-total">
        {formatMoney(total)} <span className="sim-currency">{currency}</span>
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
      <dl className="sim-totals">
        <div className="sim-sum-row">
          <dt>Subtotal</dt>
          <dd data-testid="sim-subtotal">{formatMoney(session.subtotal)}</dd>
        </div>
        {shipping && (
          <div className="sim-sum-row">
            <dt>
              Shipping <span className="sim-sum-detail">{shipping.name}</span>
            </dt>
            <dd data-testid="sim-shipping">{shippingPriceText(shipping.amount)}</dd>
          </div>
        )}
        {/* The simulator charges no tax: TAX_WORDS.test, the words the cart and the FAQ use for test mode. */}
        <div className="sim-sum-row">
          <dt>Tax</dt>
          <dd>{formatMoney(0)}</dd>
          <dd className="sim-sum-note" data-testid="sim-tax-note">
            {TAX_WORDS.test}
          </dd>
        </div>
        {/* Announced when another shipping method changes it. */}
        <div className="sim-sum-row sim-total-row" aria-live="polite">
          <dt>Total due</dt>
          <dd>
            <strong data-testid="sim-total-due">
              {formatMoney(total)} {currency}
            </strong>
          </dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * An open session: its summary and its form, which share the form's values (the summary shows the chosen
 * shipping method and the total it makes, which Pay charges).
 */
function OpenCheckout({ session, onClosed }: { session: SimulatorSessionPayload; onClosed: () => void }) {
  // A returning customer's last name and address, filled in and editable (the session's `prefill`).
  const [values, setForm] = useState<PayForm>(() => initialForm(session));
  // Asked again (back from the success page), the session may offer other methods: else the first.
  const shipping = chosenOption(session.shippingOptions, values.shippingOption);
  const form = { ...values, country: session.shipTo, shippingOption: shipping?.id ?? '' };
  const total = totalDue(session, shipping);
  return (
    <div className="sim-layout">
      <Summary session={session} shipping={shipping} total={total} />
      <PaymentForm session={session} form={form} setForm={setForm} total={total} onClosed={onClosed} />
    </div>
  );
}

export default function SimulatorPage() {
  const { sessionId = '' } = useParams();
  const [state, setState] = useState<SessionOutcome | null>(null);
  const [reloads, setReloads] = useState(0);
  const askAgain = useCallback(() => setReloads((n) => n + 1), []);
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
    body = <OpenCheckout session={state.value} onClosed={askAgain} />;
  }

  return (
    <div className="sim-page">
      <TestModeBanner />
      <main className="sim-main">{body}</main>
    </div>
  );
}
