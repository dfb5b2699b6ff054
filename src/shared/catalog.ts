// The shop's fixed vocabulary (docs/api.md, docs/domain.md): colors, strengths and order statuses.

export const COLORS = [
  { hex: '#007bff', name: 'Blue' },
  { hex: '#dc3545', name: 'Red' },
  { hex: '#28a745', name: 'Green' },
  { hex: '#ffc107', name: 'Yellow' },
  { hex: '#343a40', name: 'Black' },
  { hex: '#f8f9fa', name: 'White' },
  { hex: '#6c757d', name: 'Gray' },
] as const;

export type ColorHex = (typeof COLORS)[number]['hex'];
export const COLOR_HEXES = COLORS.map((c) => c.hex) as [ColorHex, ...ColorHex[]];
export const DEFAULT_COLOR: ColorHex = '#007bff';
export const DEFAULT_SWATCH = '#cccccc';

const byKey = new Map<string, { hex: string; name: string }>();
for (const c of COLORS) {
  byKey.set(c.hex, c);
  byKey.set(c.name.toLowerCase(), c);
}

/** The color's display name, from a hex code or a plain name ('blue'); the input itself if unknown. */
export function colorName(color: string | null | undefined): string {
  if (!color) return '';
  return byKey.get(color.trim().toLowerCase())?.name ?? color;
}

/** The CSS color of a swatch: a known color's hex, otherwise the default swatch. */
export function colorSwatch(color: string | null | undefined): string {
  if (!color) return DEFAULT_SWATCH;
  return byKey.get(color.trim().toLowerCase())?.hex ?? DEFAULT_SWATCH;
}

export const STRENGTHS = [
  { level: 1, label: 'Hollow' },
  { level: 2, label: 'Light' },
  { level: 3, label: 'Standard' },
  { level: 4, label: 'Heavy' },
  { level: 5, label: 'Solid' },
] as const;

export type Strength = 1 | 2 | 3 | 4 | 5;
export const MIN_STRENGTH = 1;
export const MAX_STRENGTH = 5;
export const DEFAULT_STRENGTH: Strength = 3;

export function isStrength(value: unknown): value is Strength {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= MIN_STRENGTH && value <= MAX_STRENGTH
  );
}

/** 'Standard' for 3; the number itself for anything outside 1-5. */
export function strengthLabel(level: number): string {
  return STRENGTHS.find((s) => s.level === level)?.label ?? String(level);
}

export const ORDER_STATUSES = [
  'pending',
  'paid',
  'queued',
  'printing',
  'shipped',
  'failed',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending Payment',
  paid: 'Paid / Processing',
  queued: 'Queued for Print',
  printing: 'Printing',
  shipped: 'Shipped',
  failed: 'Payment Failed',
  cancelled: 'Cancelled',
};

export function statusLabel(status: string | null | undefined): string {
  if (!status) return 'Unknown';
  return (STATUS_LABELS as Record<string, string>)[status] ?? status;
}

/** The most pieces of one line (card, cart and checkout alike). */
export const MAX_ITEM_QUANTITY = 100;
/** The longest note one line may carry. */
export const MAX_ITEM_NOTES = 1000;
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
export const MODEL_EXTENSIONS = ['.stl', '.obj', '.3mf'] as const;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 256;
export const MINIMUM_ITEM_PRICE_CENTS = 1200;
export const SHOP_LOCATION = 'Wisconsin, United States';
export const SHIPPING_COUNTRIES = ['US', 'CA'] as const;
