import { type FormEvent, useId, useState } from 'react';
import { type AdminFlag, type AdminOrderDetail, FLAG_LABELS } from '../../../shared/admin.ts';
import { changeOrder, orderPath } from '../admin-api.ts';
import { formatDateTime } from '../admin-format.ts';
import { ActionError, Panel } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';

type Props = { order: AdminOrderDetail; onChange: (o: AdminOrderDetail) => void };

/** What the shop noticed about the order's money or address, open ones first. */
export function FlagsPanel({ order, onChange }: Props) {
  const flags = [...order.flags].sort((a, b) => Number(!!a.resolvedAt) - Number(!!b.resolvedAt));
  const open = flags.filter((f) => !f.resolvedAt).length;
  return (
    <Panel
      title={open > 0 ? `Flags (${open} open)` : 'Flags'}
      id="flags-title"
      className={open ? 'flags-open' : ''}
    >
      <ul className="admin-flags">
        {flags.map((flag) => (
          <Flag key={flag.id} order={order} flag={flag} onChange={onChange} />
        ))}
      </ul>
    </Panel>
  );
}

function Flag({ order, flag, onChange }: Props & { flag: AdminFlag }) {
  const action = useAction();
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const id = useId();

  async function resolve(e: FormEvent) {
    e.preventDefault();
    if (!note.trim()) {
      action.setError('Say how the flag was resolved.');
      return;
    }
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/flags/${flag.id}/resolve`, { note: note.trim() }),
    );
    if (changed) {
      setResolving(false);
      onChange(changed);
    }
  }

  return (
    <li
      className={
        flag.resolvedAt ? 'admin-flag resolved' : `admin-flag open${flag.blocking ? ' blocking' : ''}`
      }
    >
      <p className="flag-title">
        <span aria-hidden="true">⚑ </span>
        <strong>{FLAG_LABELS[flag.kind] ?? flag.kind}</strong>{' '}
        <span className="muted">{formatDateTime(flag.createdAt)}</span>
      </p>
      {flag.details && <p className="flag-details">{flag.details}</p>}
      {!flag.resolvedAt && flag.blocking && (
        <p className="flag-blocking">Blocks moving the order on until resolved.</p>
      )}
      {flag.resolvedAt ? (
        <p className="flag-resolution">
          Resolved {formatDateTime(flag.resolvedAt)}
          {flag.resolvedBy && ` by ${flag.resolvedBy}`}
          {flag.resolutionNote && `: ${flag.resolutionNote}`}
        </p>
      ) : resolving ? (
        <form
          className="inline-form"
          onSubmit={resolve}
          aria-label={`Resolve: ${FLAG_LABELS[flag.kind] ?? flag.kind}`}
        >
          <div className="field">
            <label htmlFor={`${id}-note`}>How was it resolved?</label>
            <input
              id={`${id}-note`}
              value={note}
              maxLength={2000}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <div className="button-row">
            <button type="submit" className="button button-small button-primary" disabled={action.busy}>
              {action.busy ? 'Saving…' : 'Resolve flag'}
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={action.busy}
              onClick={() => setResolving(false)}
            >
              Never mind
            </button>
          </div>
          <ActionError error={action.error} />
        </form>
      ) : (
        <button type="button" className="button button-small" onClick={() => setResolving(true)}>
          Resolve…
        </button>
      )}
    </li>
  );
}
