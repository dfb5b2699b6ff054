import { type FormEvent, useId, useState } from 'react';
import type { AdminOrderDetail } from '../../../shared/admin.ts';
import {
  CARRIERS,
  type CarrierCode,
  normaliseTrackingNumber,
  TRACKING_MSG,
  TRACKING_NUMBER,
} from '../../../shared/carriers.ts';
import { statusLabel } from '../../../shared/catalog.ts';
import { formatCents } from '../../../shared/format.ts';
import { changeOrder, orderPath } from '../admin-api.ts';
import { formatDateTime } from '../admin-format.ts';
import { ActionError, Panel, StatusBadge } from '../admin-ui.tsx';
import { stepLabel } from '../next-status.ts';
import { useAction } from '../use-action.ts';

type Props = { order: AdminOrderDetail; onChange: (o: AdminOrderDetail) => void };

const REACHED: [keyof AdminOrderDetail, string][] = [
  ['paidAt', 'Paid'],
  ['queuedAt', 'Queued'],
  ['printingAt', 'Printing'],
  ['shippedAt', 'Shipped'],
  ['cancelledAt', 'Cancelled'],
];

/** The order's status and the moves staff may make now: the next step, shipping, cancelling. */
export function StatusPanel({ order, onChange }: Props) {
  const [notify, setNotify] = useState(true);
  const notifyId = useId();
  const next = order.nextStatus;
  const canCancel = order.allowedStatuses.includes('cancelled');
  const blocked =
    !next &&
    ['paid', 'queued', 'printing'].includes(order.status) &&
    order.flags.some((f) => f.blocking && !f.resolvedAt);

  return (
    <Panel title="Status" id="status-title" className="status-panel">
      <div className="status-now">
        <StatusBadge status={order.status} />
        <ul className="status-times">
          {REACHED.map(([key, label]) =>
            order[key] ? (
              <li key={key}>
                {label} {formatDateTime(order[key] as string)}
              </li>
            ) : null,
          )}
        </ul>
      </div>
      {order.cancelReason && <p className="muted">Cancelled because: {order.cancelReason}</p>}
      {blocked && (
        <p className="alert alert-info">
          A blocking flag stops this order moving on until it is resolved (cancelling still works).
        </p>
      )}
      {(next || canCancel) && (
        <div className="field-check">
          <input
            id={notifyId}
            type="checkbox"
            checked={notify}
            onChange={(e) => setNotify(e.target.checked)}
          />
          <label htmlFor={notifyId}>Notify the customer by mail</label>
        </div>
      )}
      {next === 'shipped' ? (
        <ShipForm order={order} notify={notify} onChange={onChange} />
      ) : next ? (
        <NextStep order={order} next={next} notify={notify} onChange={onChange} />
      ) : null}
      {canCancel && <CancelOrder order={order} notify={notify} onChange={onChange} />}
      {!next && !canCancel && !blocked && (
        <p className="muted">{statusLabel(order.status)}: nothing more to do here.</p>
      )}
    </Panel>
  );
}

function NextStep({
  order,
  next,
  notify,
  onChange,
}: Props & { next: NonNullable<AdminOrderDetail['nextStatus']>; notify: boolean }) {
  const action = useAction();
  async function move() {
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/status`, { status: next, notify }),
    );
    if (changed) onChange(changed);
  }
  return (
    <div className="status-step">
      <button type="button" className="button button-primary" disabled={action.busy} onClick={move}>
        {action.busy ? 'Saving…' : stepLabel(next)}
      </button>{' '}
      <span className="hint">
        {statusLabel(order.status)} → {statusLabel(next)}
      </span>
      <ActionError error={action.error} />
    </div>
  );
}

function ShipForm({ order, notify, onChange }: Props & { notify: boolean }) {
  const action = useAction();
  const [carrier, setCarrier] = useState<CarrierCode | ''>('');
  const [tracking, setTracking] = useState('');
  const [errors, setErrors] = useState<{ carrier?: string; tracking?: string }>({});
  const id = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const number = normaliseTrackingNumber(tracking);
    const found = {
      carrier: carrier ? undefined : 'Choose the carrier.',
      tracking: TRACKING_NUMBER.test(number) ? undefined : TRACKING_MSG,
    };
    setErrors(found);
    if (found.carrier || found.tracking || !carrier) return;
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/status`, {
        status: 'shipped',
        carrier,
        trackingNumber: number,
        notify,
      }),
    );
    if (changed) onChange(changed);
  }

  return (
    <form className="ship-form" onSubmit={submit} noValidate aria-label="Ship the order">
      <div className={errors.carrier ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-carrier`}>Carrier</label>
        <select
          id={`${id}-carrier`}
          value={carrier}
          onChange={(e) => setCarrier(e.target.value as CarrierCode | '')}
          aria-invalid={errors.carrier ? true : undefined}
          aria-describedby={errors.carrier ? `${id}-carrier-error` : undefined}
        >
          <option value="">Choose…</option>
          {CARRIERS.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        {errors.carrier && (
          <small id={`${id}-carrier-error`} className="field-error">
            {errors.carrier}
          </small>
        )}
      </div>
      <div className={errors.tracking ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-tracking`}>Tracking number</label>
        <input
          id={`${id}-tracking`}
          value={tracking}
          onChange={(e) => setTracking(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={60}
          aria-invalid={errors.tracking ? true : undefined}
          aria-describedby={`${id}-tracking-hint${errors.tracking ? ` ${id}-tracking-error` : ''}`}
        />
        {errors.tracking && (
          <small id={`${id}-tracking-error`} className="field-error">
            {errors.tracking}
          </small>
        )}
        <small id={`${id}-tracking-hint`} className="hint">
          6 to 40 letters and digits; spaces and dashes are dropped.
        </small>
      </div>
      <button type="submit" className="button button-primary" disabled={action.busy}>
        {action.busy ? 'Saving…' : stepLabel('shipped')}
      </button>
      <ActionError error={action.error} />
    </form>
  );
}

function CancelOrder({ order, notify, onChange }: Props & { notify: boolean }) {
  const action = useAction();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const id = useId();
  const refund = order.refundableCents;

  async function cancel() {
    const note = reason.trim();
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/status`, {
        status: 'cancelled',
        notify,
        ...(note ? { note } : {}),
      }),
    );
    if (changed) {
      setAsking(false);
      onChange(changed);
    }
  }

  if (!asking) {
    return (
      <p className="status-cancel">
        <button type="button" className="button button-small button-danger" onClick={() => setAsking(true)}>
          Cancel order…
        </button>
      </p>
    );
  }
  return (
    <fieldset className="cancel-confirm">
      <legend>
        <strong>Cancel order #{order.id}?</strong>{' '}
        {refund > 0
          ? `This refunds what is left to the customer: ${formatCents(refund)}.`
          : 'Nothing is left to refund.'}
      </legend>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason (optional, kept on the timeline)</label>
        <input
          id={`${id}-reason`}
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <div className="button-row">
        <button type="button" className="button button-danger" disabled={action.busy} onClick={cancel}>
          {action.busy
            ? 'Saving…'
            : refund > 0
              ? `Cancel and refund ${formatCents(refund)}`
              : 'Cancel the order'}
        </button>
        <button type="button" className="button" disabled={action.busy} onClick={() => setAsking(false)}>
          Keep the order
        </button>
      </div>
      <ActionError error={action.error} />
    </fieldset>
  );
}
