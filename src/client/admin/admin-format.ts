import { formatDate, formatNumber } from '../../shared/format.ts';

// Dates and amounts as the panel shows them (the shop's formats are in src/shared/format.ts).

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Nov 25, 2026, 6:00 AM' in the browser's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/** 'Nov 25, 2026': an instant, or a calendar day 'YYYY-MM-DD' without a time zone shifting it. */
export function formatShortDate(value: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  return Number.isNaN(d.getTime()) ? value : shortDate.format(d);
}

/** A calendar day 'YYYY-MM-DD' in long form ('December 2, 2026'). */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? formatDate(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : day;
}

/** Hours as staff plan them: '45 min', '2.5 h'. */
export function formatHours(hours: number): string {
  if (!Number.isFinite(hours)) return '';
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  return `${hours < 10 ? hours.toFixed(1) : formatNumber(hours, 0)} h`;
}

/** Grams of filament: '18 g', '1.24 kg'. */
export function formatGrams(grams: number): string {
  if (!Number.isFinite(grams)) return '';
  return grams >= 1000 ? `${formatNumber(grams / 1000, 2)} kg` : `${Math.round(grams)} g`;
}

/**
 * A typed dollar amount as whole cents: '12', '12.5', '$1,012.50' -> 101250. Null when it is not an amount
 * (letters, three decimals, negative).
 */
export function dollarsToCents(typed: string): number | null {
  const text = typed.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text) ?? /^()\.(\d{1,2})$/.exec(text);
  if (!m) return null;
  return Number(m[1] || '0') * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
