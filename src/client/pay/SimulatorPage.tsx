import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type { SimulatorSessionPayload } from '../../shared/checkout.ts';
import { formatMoney } from '../../shared/format.ts';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { PaymentForm } from './PaymentForm.tsx';
import { fetchSession, PAY_PAGE_MSG, type SessionOutcome } from './simulator-api.ts';
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
    body = (
      <div className="sim-layout">
        <Summary session={state.value} />
        <PaymentForm session={state.value} onClosed={askAgain} />
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
