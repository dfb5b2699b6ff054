import { type FormEvent, useId, useState } from 'react';
import type { AdminOrderDetail, AdminTimelineEntry } from '../../../shared/admin.ts';
import { statusLabel } from '../../../shared/catalog.ts';
import { formatCents } from '../../../shared/format.ts';
import { changeOrder, orderPath } from '../admin-api.ts';
import { formatDateTime } from '../admin-format.ts';
import { ActionError, Panel } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';

type Props = { order: AdminOrderDetail; onChange: (o: AdminOrderDetail) => void };

const KIND_LABELS: Record<AdminTimelineEntry['kind'], string> = {
  status: 'Status',
  note: 'Note',
  refund: 'Refund',
  flag: 'Flag',
  mail: 'Mail',
  payment: 'Payment',
  reprint: 'Reprint',
  printed: 'Printed',
};

function who(entry: AdminTimelineEntry): string {
  if (entry.actorName)
    return entry.actor === 'admin' ? entry.actorName : `${entry.actorName} (${entry.actor})`;
  return entry.actor;
}

/** Everything that happened to the order, newest first, and the note form. */
export function TimelinePanel({ order, onChange }: Props) {
  // The server sends it oldest first (ties in the order they happened): newest first here.
  const entries = [...order.timeline].reverse();
  return (
    <Panel title="Timeline" id="timeline-title">
      <NoteForm order={order} onChange={onChange} />
      {entries.length === 0 ? (
        <p className="empty">Nothing has happened yet.</p>
      ) : (
        <ol className="admin-timeline">
          {entries.map((e) => (
            <li key={e.key} className={`timeline-entry kind-${e.kind}`}>
              <span className="timeline-kind">{KIND_LABELS[e.kind] ?? e.kind}</span>
              <div className="timeline-body">
                {e.kind === 'status' && e.toStatus && (
                  <p className="timeline-move">
                    {e.fromStatus ? `${statusLabel(e.fromStatus)} → ` : ''}
                    {statusLabel(e.toStatus)}
                  </p>
                )}
                {e.text && <p className="timeline-text">{e.text}</p>}
                {e.amountCents !== null && <p className="timeline-amount">{formatCents(e.amountCents)}</p>}
                <p className="timeline-meta">
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time> · {who(e)}
                  {e.kind === 'note' && (
                    <span className={e.visibleToCustomer ? 'admin-marker marker-public' : 'admin-marker'}>
                      {e.visibleToCustomer ? 'Visible to the customer' : 'Internal'}
                    </span>
                  )}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function NoteForm({ order, onChange }: Props) {
  const action = useAction();
  const [text, setText] = useState('');
  const [visible, setVisible] = useState(false);
  const id = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) {
      action.setError('Write the note first.');
      return;
    }
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/notes`, { text: text.trim(), visibleToCustomer: visible }),
    );
    if (changed) {
      setText('');
      setVisible(false);
      onChange(changed);
    }
  }

  return (
    <form className="note-form" onSubmit={submit} aria-label="Add a note">
      <div className="field">
        <label htmlFor={`${id}-text`}>Note</label>
        <textarea
          id={`${id}-text`}
          rows={2}
          maxLength={5000}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="note-form-row">
        <div className="field-check">
          <input
            id={`${id}-visible`}
            type="checkbox"
            checked={visible}
            onChange={(e) => setVisible(e.target.checked)}
          />
          <label htmlFor={`${id}-visible`}>Visible to the customer (also mailed)</label>
        </div>
        <button type="submit" className="button button-small button-primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Add note'}
        </button>
      </div>
      <ActionError error={action.error} />
    </form>
  );
}
