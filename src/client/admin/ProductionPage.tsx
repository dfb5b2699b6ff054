import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ProductionGroup, ProductionSheet } from '../../shared/admin.ts';
import { colorSwatch } from '../../shared/catalog.ts';
import { formatDimensions } from '../../shared/format.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { load, modelFileUrl, send } from './admin-api.ts';
import { formatDateTime, formatGrams, formatHours } from './admin-format.ts';
import { ActionError, Preview, ShipBy, StatusBadge } from './admin-ui.tsx';
import { useAction } from './use-action.ts';

type StartAnswer = { started: number[]; refused: { orderId: number; error: string }[] };

/** /admin/production: the queued and printing items, batched by color and strength; printable. */
export default function ProductionPage() {
  useDocumentTitle('Production sheet · Admin');
  const [sheet, setSheet] = useState<ProductionSheet | null>(null);
  const [error, setError] = useState('');
  const [reload, setReload] = useState(0);
  const [loadedAt, setLoadedAt] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` asks for the sheet again.
  useEffect(() => {
    const controller = new AbortController();
    load<ProductionSheet>('/api/admin/production', controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        setSheet(result.data);
        setLoadedAt(new Date().toISOString());
        setError('');
      } else setError(result.error);
    });
    return () => controller.abort();
  }, [reload]);

  const groups = sheet?.groups ?? [];
  const pieces = groups.reduce((n, g) => n + g.pieces, 0);
  const hours = groups.reduce((n, g) => n + g.hours, 0);

  return (
    <div className="admin-production">
      <div className="admin-title-row">
        <h1>Production sheet</h1>
        <button type="button" className="button no-print" onClick={() => window.print()}>
          Print sheet
        </button>
      </div>
      {sheet && groups.length > 0 && (
        <p className="lead production-summary">
          {groups.length} {groups.length === 1 ? 'batch' : 'batches'}, {pieces}{' '}
          {pieces === 1 ? 'piece' : 'pieces'}, about {formatHours(hours)} of printing (as of{' '}
          {formatDateTime(loadedAt)}).
        </p>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      {!sheet && !error ? (
        <p className="loading" role="status">
          Loading the sheet…
        </p>
      ) : sheet && groups.length === 0 ? (
        <p className="empty">Nothing is queued or printing.</p>
      ) : (
        groups.map((g) => <Group key={g.key} group={g} onStarted={() => setReload((r) => r + 1)} />)
      )}
    </div>
  );
}

function Group({ group, onStarted }: { group: ProductionGroup; onStarted: () => void }) {
  const action = useAction();
  const [answer, setAnswer] = useState<StartAnswer | null>(null);
  const titleId = `batch-${group.key.replace(/[^A-Za-z0-9]/g, '')}`;

  async function start() {
    setAnswer(null);
    const result = await action.run(() =>
      send<StartAnswer, '/api/admin/production/start'>('/api/admin/production/start', {
        orderIds: group.queuedOrderIds,
      }),
    );
    if (result) {
      setAnswer(result);
      if (result.started.length > 0) onStarted();
    }
  }

  return (
    <section className="card production-group" aria-labelledby={titleId} data-group={group.key}>
      <header className="production-head">
        <h2 id={titleId}>
          <span className="swatch" style={{ background: colorSwatch(group.color) }} aria-hidden="true" />{' '}
          {group.colorName} · {group.strengthLabel} ({group.strength}/5)
        </h2>
        <dl className="production-stats">
          <div>
            <dt>Pieces</dt>
            <dd>{group.pieces}</dd>
          </div>
          <div>
            <dt>Hours</dt>
            <dd>{formatHours(group.hours)}</dd>
          </div>
          <div>
            <dt>Filament</dt>
            <dd>{formatGrams(group.grams)}</dd>
          </div>
        </dl>
        {group.queuedOrderIds.length > 0 && (
          <button
            type="button"
            className="button button-primary no-print"
            disabled={action.busy}
            onClick={start}
          >
            {action.busy
              ? 'Saving…'
              : `Start this batch (${group.queuedOrderIds.length} ${group.queuedOrderIds.length === 1 ? 'order' : 'orders'})`}
          </button>
        )}
      </header>
      <ActionError error={action.error} />
      {answer && (
        <Alert kind={answer.refused.length ? 'info' : 'success'}>
          {answer.started.length > 0 && (
            <p>Printing now: {answer.started.map((id) => `#${id}`).join(', ')}.</p>
          )}
          {answer.refused.map((r) => (
            <p key={r.orderId}>
              #{r.orderId} not started: {r.error}
            </p>
          ))}
        </Alert>
      )}
      <table className="admin-table production-table">
        <caption className="visually-hidden">
          Items in {group.colorName}, {group.strengthLabel}
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Preview</span>
            </th>
            <th scope="col">Order</th>
            <th scope="col">File</th>
            <th scope="col" className="num">
              Qty
            </th>
            <th scope="col">Size</th>
            <th scope="col">Notes</th>
            <th scope="col">Ship by</th>
          </tr>
        </thead>
        <tbody>
          {group.items.map((item) => (
            <tr key={`${item.itemId}`} data-item-id={item.itemId}>
              <td>
                <Preview url={item.previewUrl} fileName={item.fileName} size={56} color={group.color} />
              </td>
              <td className="col-order">
                <Link to={`/admin/orders/${item.orderId}`} className="order-link">
                  #{item.orderId}
                </Link>
                <StatusBadge status={item.orderStatus} />
              </td>
              <td className="col-file">
                {item.modelId ? (
                  <a href={modelFileUrl(item.modelId)} download title={`Download ${item.fileName}`}>
                    {item.fileName}
                  </a>
                ) : (
                  item.fileName
                )}
                {item.reprintReason !== null && (
                  <span className="admin-marker marker-reprint">Reprint: {item.reprintReason}</span>
                )}
              </td>
              <td className="num">{item.quantity}</td>
              <td>{item.dimensions ? formatDimensions(item.dimensions) : '—'}</td>
              <td className="col-notes">{item.notes || <span className="muted">—</span>}</td>
              <td>
                <ShipBy shipBy={item.shipBy} late={item.late} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
