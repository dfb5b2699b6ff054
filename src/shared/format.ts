// Number formats of docs/domain.md: money 2 decimals, dimensions 1 decimal, volume 2 decimals.

function fixed(value: number, digits: number): string {
  const n = Number.isFinite(value) ? value : 0;
  // Avoid '-0.00' for tiny negatives.
  const out = n.toFixed(digits);
  return /^-0\.?0*$/.test(out) ? out.slice(1) : out;
}

const dollarsFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 12 -> '$12.00', 42929.98 -> '$42,929.98'; with a currency code: '$12.00 USD'. One formatter for every price. */
export function formatMoney(amount: number, currency?: string): string {
  const n = Number.isFinite(amount) ? amount : 0;
  // Avoid '-$0.00' for tiny negatives.
  const text = dollarsFormat.format(Math.abs(n) < 0.005 ? 0 : n);
  return currency ? `${text} ${currency.toUpperCase()}` : text;
}

export function formatCents(cents: number, currency?: string): string {
  return formatMoney(cents / 100, currency);
}

export function formatDimension(mm: number): string {
  return fixed(mm, 1);
}

/** '20.0 x 10.5 x 3.0 mm' */
export function formatDimensions(d: { x: number; y: number; z: number }): string {
  return `${formatDimension(d.x)} x ${formatDimension(d.y)} x ${formatDimension(d.z)} mm`;
}

export function formatVolume(cm3: number): string {
  return `${fixed(cm3, 2)} cm³`;
}

export function formatDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
