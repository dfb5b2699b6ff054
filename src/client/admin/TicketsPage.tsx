import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminOrderDetail } from '../../shared/admin.ts';
import { formatDimensions } from '../../shared/format.ts';
import { Alert } from '../ui/Alert.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { load, orderPath } from './admin-api.ts';
import { formatDateTime, formatDay } from './admin-format.ts';
import { AddressLines, ColorLabel, Preview, strengthText } from './admin-ui.tsx';
import { useBackLink } from './back-link.ts';
import { qrPath } from './qr-path.ts';
import { ticketIds } from './ticket-ids.ts';

const SHOP_NAME = 'Badger Print Co.';
type Loaded = { id: number; order?: AdminOrderDetail; error?: string };

/** /admin/tickets?ids=1,2,3: one printable job ticket and packing slip per order. */
export default function TicketsPage() {
  const [params] = useSearchParams();
  const ids = useMemo(() => ticketIds(params.get('ids')), [params]);
  const back = useBackLink();
  useDocumentTitle(ids.length === 1 ? `Job ticket #${ids[0]} · Admin` : 'Job tickets · Admin');
  const [tickets, setTickets] = useState<Loaded[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setTickets(null);
    Promise.all(
      ids.map(async (id): Promise<Loaded> => {
        const result = await load<AdminOrderDetail>(orderPath(id), controller.signal);
        return result.ok ? { id, order: result.data } : { id, error: result.error };
      }),
    ).then((loaded) => {
      if (!controller.signal.aborted) setTickets(loaded);
    });
    return () => controller.abort();
  }, [ids]);

  const ready = !!tickets?.some((t) => t.order);
  return (
    <div className="admin-tickets">
      <div className="admin-title-row no-print">
        <h1>{ids.length === 1 ? `Job ticket #${ids[0]}` : `Job tickets (${ids.length})`}</h1>
        <div className="button-row">
          <Link className="button" to={back}>
            Back
          </Link>
          <button
            type="button"
            className="button button-primary"
            disabled={!ready}
            onClick={() => window.print()}
          >
            Print
          </button>
        </div>
      </div>
      {ids.length === 0 && <p className="empty">Choose orders on the board to print their tickets.</p>}
      {ids.length > 0 && tickets === null && (
        <p className="loading" role="status">
          Loading the tickets…
        </p>
      )}
      {tickets?.map((t) =>
        t.order ? (
          <Ticket key={t.id} order={t.order} />
        ) : (
          <Alert key={t.id} kind="error">
            Order #{t.id}: {t.error}
          </Alert>
        ),
      )}
    </div>
  );
}

function Ticket({ order }: { order: AdminOrderDetail }) {
  const url = `${window.location.origin}/admin/orders/${order.id}`;
  const qr = useMemo(() => qrPath(url), [url]);
  const pieces = order.items.reduce((n, i) => n + i.quantity, 0);
  const titleId = `ticket-${order.id}`;
  return (
    <article className="ticket" aria-labelledby={titleId} data-order-id={order.id}>
      <header className="ticket-head">
        <div>
          <p className="ticket-shop">{SHOP_NAME}</p>
          <h2 id={titleId}>Order #{order.id}</h2>
          <p className="ticket-sub">
            Job ticket and packing slip · placed {formatDateTime(order.createdAt)}
            {order.shipBy && order.status !== 'shipped' && <> · ship by {formatDay(order.shipBy)}</>}
          </p>
        </div>
        <figure className="ticket-qr">
          <svg
            viewBox={`0 0 ${qr.size} ${qr.size}`}
            width="112"
            height="112"
            role="img"
            aria-label={`QR code of ${url}`}
            shapeRendering="crispEdges"
          >
            <rect width={qr.size} height={qr.size} fill="#fff" />
            <path d={qr.d} fill="#000" />
          </svg>
          <figcaption>{url}</figcaption>
        </figure>
      </header>
      <div className="ticket-ship">
        <div>
          <h3>Ship to</h3>
          <AddressLines shipping={order.shipping} />
        </div>
        <div>
          <h3>Shipping method</h3>
          <p>{order.shipping.method || 'Free shipping (no method chosen)'}</p>
          <h3>Customer</h3>
          <p>
            {order.customer.username} · {order.customer.email}
          </p>
        </div>
      </div>
      <table className="ticket-items">
        <caption>
          {order.items.length} {order.items.length === 1 ? 'line' : 'lines'}, {pieces}{' '}
          {pieces === 1 ? 'piece' : 'pieces'}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="col-w-preview">
              Preview
            </th>
            <th scope="col">File</th>
            <th scope="col" className="col-w-color">
              Color
            </th>
            <th scope="col" className="col-w-strength">
              Strength
            </th>
            <th scope="col" className="num col-w-qty">
              Qty
            </th>
            <th scope="col" className="col-w-notes">
              Notes
            </th>
            <th scope="col" className="col-w-packed">
              Packed
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.id}>
              <td>
                <Preview url={item.previewUrl} fileName={item.fileName} size={72} color={item.color} />
              </td>
              <td className="col-file">
                <span className="file-name">{item.fileName}</span>
                {item.dimensions && <span className="muted">{formatDimensions(item.dimensions)}</span>}
              </td>
              <td>
                <ColorLabel color={item.color} />
              </td>
              <td>{strengthText(item.strength)}</td>
              <td className="num ticket-qty">{item.quantity}</td>
              <td className="col-notes">{item.notes}</td>
              <td>
                <span className="check-box" aria-hidden="true" />
                <span className="visually-hidden">To tick by hand</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
