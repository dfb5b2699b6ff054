// CSV as RFC 4180 writes it, safe to open in a spreadsheet: a text cell that a spreadsheet would take for a
// formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe (OWASP's "CSV
// injection" advice), and a cell holding a comma, a quote or a line break is quoted, its quotes doubled. A
// semicolon or a tab is quoted too: spreadsheets in many locales split cells on ';' (or a tab), and the
// text after one would start a cell of its own, a formula if it starts like one (OWASP's field separator
// caveat). Money is written as a plain number and never prefixed.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** A text cell: defused, then quoted when it must be. */
export function textCell(value: string | null | undefined): string {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Whole cents as a plain number with two decimals (1250 -> 12.50). */
export function moneyCell(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);
}

/** An integer (ids, quantities). */
export function numberCell(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(Math.trunc(value));
}

export const CSV_EOL = '\r\n';

export function csvLine(cells: string[]): string {
  return `${cells.join(',')}${CSV_EOL}`;
}
