import { type FormEvent, Suspense, useId, useState } from 'react';
import type { AdminOrderDetail, AdminOrderItem } from '../../../shared/admin.ts';
import { formatCents, formatDimensions, formatVolume } from '../../../shared/format.ts';
import type { ModelPayload } from '../../../shared/models.ts';
import { LazyViewerModal } from '../../viewer/lazy-viewer.ts';
import { viewMeshUrl } from '../../viewer/view-url.ts';
import { changeOrder, load, modelFileUrl, orderPath } from '../admin-api.ts';
import { formatGrams, formatHours, formatShortDate } from '../admin-format.ts';
import { ActionError, ColorLabel, Panel, Preview, strengthText } from '../admin-ui.tsx';
import { useAction } from '../use-action.ts';
import { moneyRows } from './money-rows.ts';

type Props = { order: AdminOrderDetail; onChange: (o: AdminOrderDetail) => void };
type Viewing = { url: string; fileName: string; color: string; scale: number };

/** The order's lines, each with its file, its 3D view and what production does to it. */
export function ItemsPanel({ order, onChange }: Props) {
  const [viewing, setViewing] = useState<Viewing | null>(null);
  const pieces = order.items.reduce((n, i) => n + i.quantity, 0);
  return (
    <Panel title={`Items (${pieces} ${pieces === 1 ? 'piece' : 'pieces'})`} id="items-title">
      {order.items.length === 0 ? (
        <p className="empty">No item details found for this order.</p>
      ) : (
        <ul className="admin-items">
          {order.items.map((item) => (
            <Item key={item.id} order={order} item={item} onChange={onChange} onView={setViewing} />
          ))}
        </ul>
      )}
      <dl className="admin-totals">
        {moneyRows(order).map((row) => (
          <div key={row.key} className={row.grand ? 'grand' : undefined}>
            <dt>{row.label}</dt>
            <dd>{row.amount}</dd>
          </div>
        ))}
      </dl>
      {viewing && (
        <Suspense fallback={null}>
          <LazyViewerModal {...viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </Panel>
  );
}

function Item({
  order,
  item,
  onChange,
  onView,
}: Props & { item: AdminOrderItem; onView: (v: Viewing) => void }) {
  const view = useAction();
  const printed = useAction();
  const [reprinting, setReprinting] = useState(false);
  const inProduction = order.status === 'queued' || order.status === 'printing';
  const hours = item.printHours === null ? null : item.printHours * item.quantity;
  const grams = item.grams === null ? null : item.grams * item.quantity;

  // The viewer draws the stored file at the size ordered: a rescaled model keeps its original's file.
  async function openViewer(modelId: string) {
    const model = await view.run(() => load<ModelPayload>(`/api/models/${encodeURIComponent(modelId)}`));
    if (model)
      onView({
        url: viewMeshUrl(modelId),
        fileName: item.fileName,
        color: item.color,
        scale: model.scale || 1,
      });
  }
  async function markPrinted() {
    const changed = await printed.run(() =>
      changeOrder(`${orderPath(order.id)}/items/${item.id}/printed`, {}),
    );
    if (changed) onChange(changed);
  }

  return (
    <li className="admin-item" data-item-id={item.id}>
      <Preview url={item.previewUrl} fileName={item.fileName} size={112} color={item.color} />
      <div className="admin-item-body">
        <p className="file-name">{item.fileName}</p>
        <p className="meta">
          {item.dimensions ? formatDimensions(item.dimensions) : 'Size unknown'}
          {item.volumeCm3 !== null && ` · ${formatVolume(item.volumeCm3)}`}
        </p>
        <p className="meta">
          <ColorLabel color={item.color} /> · {strengthText(item.strength)} · Quantity {item.quantity}
        </p>
        {item.notes && <p className="notes">Notes: {item.notes}</p>}
        <p className="meta">
          {formatCents(item.unitCents)} each · line {formatCents(item.lineCents)}
          {item.discountPercent > 0 && ` (${item.discountPercent}% quantity discount)`}
        </p>
        {(hours !== null || grams !== null) && (
          <p className="meta estimate">
            Estimate: {hours !== null && formatHours(hours)}
            {hours !== null && grams !== null && ', '}
            {grams !== null && formatGrams(grams)}
            {item.quantity > 1 && ' for all pieces'}
          </p>
        )}
        <p className="item-state">
          {item.printedAt && (
            <span className="admin-marker marker-ok">Printed {formatShortDate(item.printedAt)}</span>
          )}
          {item.reprints > 0 && (
            <span className="admin-marker marker-reprint">
              Reprinted {item.reprints === 1 ? 'once' : `${item.reprints} times`}
            </span>
          )}
          {item.correctedShells > 0 && (
            <span className="admin-marker marker-warn">
              {item.correctedShells === 1 ? 'One shell was' : `${item.correctedShells} shells were`} turned
              outward: check the print
            </span>
          )}
        </p>
        <ActionError error={view.error || printed.error} />
        {reprinting && (
          <ReprintForm order={order} item={item} onChange={onChange} onDone={() => setReprinting(false)} />
        )}
      </div>
      <div className="admin-item-side">
        {item.modelId ? (
          <>
            <a className="button button-small" href={modelFileUrl(item.modelId)} download>
              Download model
            </a>
            <button
              type="button"
              className="button button-small"
              disabled={view.busy}
              onClick={() => openViewer(item.modelId!)}
            >
              {view.busy ? 'Opening…' : 'View 3D'}
            </button>
          </>
        ) : (
          <span className="muted">The model file is gone.</span>
        )}
        {inProduction && !reprinting && (
          <button type="button" className="button button-small" onClick={() => setReprinting(true)}>
            Reprint…
          </button>
        )}
        {order.status === 'printing' && !item.printedAt && (
          <button type="button" className="button button-small" disabled={printed.busy} onClick={markPrinted}>
            {printed.busy ? 'Saving…' : 'Mark printed'}
          </button>
        )}
      </div>
    </li>
  );
}

function ReprintForm({
  order,
  item,
  onChange,
  onDone,
}: Props & { item: AdminOrderItem; onDone: () => void }) {
  const action = useAction();
  const [reason, setReason] = useState('');
  const id = useId();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason.trim()) {
      action.setError('Say why the item is printed again.');
      return;
    }
    const changed = await action.run(() =>
      changeOrder(`${orderPath(order.id)}/items/${item.id}/reprint`, { reason: reason.trim() }),
    );
    if (changed) {
      onDone();
      onChange(changed);
    }
  }
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Reprint ${item.fileName}`}>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Why is it printed again?</label>
        <input
          id={`${id}-reason`}
          value={reason}
          maxLength={1000}
          onChange={(e) => setReason(e.target.value)}
          placeholder="Warped corner, layer shift…"
        />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-small button-primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Send back to the printer'}
        </button>
        <button type="button" className="button button-small" disabled={action.busy} onClick={onDone}>
          Never mind
        </button>
      </div>
      <ActionError error={action.error} />
    </form>
  );
}
