import { type FormEvent, useId, useState } from 'react';
import type { AdminOrderDetail } from '../../../shared/admin.ts';
import { formatCents } from '../../../shared/format.ts';
import { changeOrder, orderPath } from '../admin-api.ts';
import { dollarsToCents, formatDateTime } from '../admin-format.ts';
import { ActionError, Panel } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';

type Props = { order: AdminOrderDetail; onChange: (o: AdminOrderDetail) => void };

const PROVIDERS: Record<string, string> = { stripe: 'Stripe', simulator: 'Payment simulator (TEST MODE)' };

/** What was paid and sent back, and a refund through the payment provider. */
export function PaymentPanel({ order, onChange }: Props) {
  const provider = order.payment.provider;
  return (
    <Panel title="Payment" id="payment-title" className="payment-panel">
      <div className="payment-body">
        <div className="payment-facts">
          {order.testMode && (
            <p className="admin-marker marker-test block" data-testid="test-order">
              Test order: no money was taken
            </p>
          )}
          <dl className="admin-facts">
            <div>
              <dt>Provider</dt>
              <dd>{provider ? (PROVIDERS[provider] ?? provider) : '—'}</dd>
            </div>
            <div>
              <dt>Paid</dt>
              <dd>
                {order.amountPaidCents === null
                  ? 'Not paid'
                  : formatCents(order.amountPaidCents, order.currency)}
              </dd>
            </div>
            <div>
              <dt>Refunded</dt>
              <dd>{formatCents(order.amountRefundedCents)}</dd>
            </div>
            <div>
              <dt>Refundable</dt>
              <dd data-testid="refundable">{formatCents(order.refundableCents)}</dd>
            </div>
            {order.payment.paymentIntentId && (
              <div>
                <dt>Payment</dt>
                <dd className="mono">{order.payment.paymentIntentId}</dd>
              </div>
            )}
          </dl>
          {order.refunds.length > 0 && (
            <>
              <h3>Refunds</h3>
              <ul className="admin-refunds">
                {order.refunds.map((r) => (
                  <li key={r.id}>
                    <strong>{formatCents(r.amountCents, r.currency)}</strong>{' '}
                    <span className={`admin-marker refund-${r.status}`}>{r.status}</span>
                    <span className="refund-meta">
                      {formatDateTime(r.createdAt)} · by {r.actorName ?? r.actor}
                    </span>
                    {r.reason && <span className="refund-reason">{r.reason}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        {order.refundableCents > 0 && <RefundForm order={order} onChange={onChange} />}
      </div>
    </Panel>
  );
}

function RefundForm({ order, onChange }: Props) {
  const action = useAction();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const id = useId();
  const left = order.refundableCents;
  const cents = amount.trim() ? dollarsToCents(amount) : left;
  const partial = cents !== null && cents < left;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = {
      amount:
        cents === null || cents <= 0
          ? 'Enter an amount in dollars, like 12.50, or leave it empty to refund all that is left.'
          : cents > left
            ? `At most ${formatCents(left)} is left to refund.`
            : undefined,
      reason: partial && !reason.trim() ? 'A partial refund needs a reason.' : undefined,
    };
    setErrors(found);
    if (found.amount || found.reason || cents === null) return;
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/refund`, {
        ...(amount.trim() ? { amountCents: cents } : {}),
        reason: reason.trim(),
      }),
    );
    if (changed) {
      setAmount('');
      setReason('');
      onChange(changed);
    }
  }

  return (
    <form className="refund-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Refund</h3>
      <div className={errors.amount ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-amount`}>Amount in dollars</label>
        <input
          id={`${id}-amount`}
          inputMode="decimal"
          value={amount}
          placeholder={(left / 100).toFixed(2)}
          onChange={(e) => setAmount(e.target.value)}
          aria-invalid={errors.amount ? true : undefined}
          aria-describedby={`${id}-amount-hint${errors.amount ? ` ${id}-amount-error` : ''}`}
        />
        {errors.amount && (
          <small id={`${id}-amount-error`} className="field-error">
            {errors.amount}
          </small>
        )}
        <small id={`${id}-amount-hint`} className="hint">
          Empty refunds all that is left ({formatCents(left)}).
        </small>
      </div>
      <div className={errors.reason ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-reason`}>Reason{partial ? '' : ' (optional for a full refund)'}</label>
        <input
          id={`${id}-reason`}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
        />
        {errors.reason && (
          <small id={`${id}-reason-error`} className="field-error">
            {errors.reason}
          </small>
        )}
      </div>
      <button type="submit" className="button button-danger" disabled={action.busy}>
        {action.busy
          ? 'Saving…'
          : cents !== null && cents > 0 && cents <= left
            ? `Refund ${formatCents(cents)}`
            : 'Refund'}
      </button>
      <ActionError error={action.error} />
    </form>
  );
}
