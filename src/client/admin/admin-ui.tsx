import type { ReactNode } from 'react';
import type { AdminOrderDetail } from '../../shared/admin.ts';
import { colorName, colorSwatch, statusLabel, strengthLabel } from '../../shared/catalog.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import { Alert } from '../ui/Alert.tsx';
import { formatShortDate } from './admin-format.ts';

// Small pieces every admin page shows the same way. Every text from the database (names, notes, tracking
// numbers) is rendered as React text: never as HTML.

export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-${status || 'unknown'}`}>{statusLabel(status)}</span>;
}

export function ColorLabel({ color }: { color: string }) {
  return (
    <span className="admin-color">
      <span className="swatch small" style={{ background: colorSwatch(color) }} aria-hidden="true" />{' '}
      {colorName(color)}
    </span>
  );
}

/** 'Standard (3/5)' */
export const strengthText = (strength: number) => `${strengthLabel(strength)} (${strength}/5)`;

export function TestMarker() {
  return (
    <span className="admin-marker marker-test" title="Test order: no money was taken">
      Test
    </span>
  );
}

export function LateMarker() {
  return <span className="admin-marker marker-late">Late</span>;
}

export function FlagMarker({ count }: { count: number }) {
  return (
    <span className="admin-marker marker-flag">
      <span aria-hidden="true">⚑ </span>
      {count === 1 ? '1 open flag' : `${count} open flags`}
    </span>
  );
}

/** Ship-by day, marked late when the server says it is. */
export function ShipBy({ shipBy, late }: { shipBy: string | null; late: boolean }) {
  if (!shipBy) return <span className="muted">—</span>;
  return (
    <span className={late ? 'ship-by is-late' : 'ship-by'}>
      {formatShortDate(shipBy)} {late && <LateMarker />}
    </span>
  );
}

const COUNTRY_NAMES: Record<string, string> = { US: 'United States', CA: 'Canada' };

/** The order's shipping address, one line each. */
export function AddressLines({ shipping }: { shipping: AdminOrderDetail['shipping'] }) {
  const region = [shipping.state, shipping.postalCode].filter(Boolean).join(' ');
  const cityLine = [shipping.city, region].filter(Boolean).join(', ');
  const country = shipping.country ? (COUNTRY_NAMES[shipping.country] ?? shipping.country) : '';
  const lines = [shipping.name, shipping.line1, shipping.line2, cityLine, country].filter(Boolean);
  if (lines.length === 0) return <p className="muted">No address on the order.</p>;
  return (
    <address className="admin-address">
      {lines.map((line, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one address never reorder.
        <span key={n}>{line}</span>
      ))}
    </address>
  );
}

/** A model's preview, or the shop's 'No Preview' box. */
/** A line's preview, in the line's color when given one. */
export function Preview({
  url,
  fileName,
  size,
  color,
}: {
  url: string | null;
  fileName: string;
  size: number;
  color?: string;
}) {
  return (
    <div className="thumb admin-thumb" style={{ width: size, height: size }}>
      {url ? (
        <img
          src={previewInColor(url, color)}
          alt={`Preview of ${fileName}`}
          width={size}
          height={size}
          loading="lazy"
        />
      ) : (
        <span className="no-preview">No Preview</span>
      )}
    </div>
  );
}

/** The server's error, beside the action that failed. */
export function ActionError({ error }: { error: string }) {
  return error ? <Alert kind="error">{error}</Alert> : null;
}

/** A section of a page: a card with its heading. */
export function Panel({
  title,
  id,
  children,
  actions,
  className,
}: {
  title: string;
  id: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <section
      className={className ? `card admin-panel ${className}` : 'card admin-panel'}
      aria-labelledby={id}
    >
      <header className="admin-panel-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}
