// Number formats of docs/domain.md: money 2 decimals, sizes 1 decimal, volumes 2 decimals, all with en-US
// thousands separators; a measure too small for its decimals is shown in a smaller unit or to 3 significant
// digits instead of as 0.

const grouped = new Map<number, Intl.NumberFormat>();

/** 158792.784 -> '158,792.78' (2 digits); a bad number reads as 0 and no '-0.00' is shown. */
export function formatNumber(value: number, digits: number): string {
  let format = grouped.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    grouped.set(digits, format);
  }
  const n = Number.isFinite(value) ? value : 0;
  return format.format(Math.abs(n) < 0.5 * 10 ** -digits ? 0 : n);
}

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A size or volume is never negative: anything that is not a number of 0 or more reads as 0. */
const measure = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

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

/** Millimetres with 1 decimal ('1,200.0'); under 0.1 mm, which would read '0.0', 3 significant digits ('0.05'). */
export function formatDimension(mm: number): string {
  const n = measure(mm);
  return n > 0 && n < 0.1 ? significant.format(n) : formatNumber(n, 1);
}

/** '20.0 x 10.5 x 3.0 mm' */
export function formatDimensions(d: { x: number; y: number; z: number }): string {
  return `${formatDimension(d.x)} x ${formatDimension(d.y)} x ${formatDimension(d.z)} mm`;
}

/** Below this a volume in cm³ with 2 decimals would read 0.00: it is shown in mm³. */
export const SMALL_VOLUME_CM3 = 0.01;

/** '158,792.78 cm³'; under 0.01 cm³ in mm³ with up to 3 significant digits ('1 mm³', '0.125 mm³'). */
export function formatVolume(cm3: number): string {
  const n = measure(cm3);
  return n > 0 && n < SMALL_VOLUME_CM3 ? `${significant.format(n * 1000)} mm³` : `${formatNumber(n, 2)} cm³`;
}

/** '1 item', '2 items', '1,250 triangles'; `many` for a plural that is not one + 's' ('batches'). */
export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n, 0)} ${n === 1 ? one : many}`;
}

export function formatDate(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
