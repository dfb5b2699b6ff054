// Numbers as the settings forms hold them: the text typed, read back as a number or a sentence saying why not.

export type FieldProblem = { field: string; error: string };

/** The number typed ('1,250.5', '$3'), or null when it is empty or not a number. */
export function readNumber(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (cleaned === '' || !/^-?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

/** A number for an input: at most 6 decimals, no float noise (0.30000000000000004 -> '0.3'). */
export function numberText(value: number): string {
  return String(Number(value.toFixed(6)));
}

/** Cents as a dollar amount to type: 695 -> '6.95', 1200 -> '12.00', 250.5 -> '2.505'. */
export function dollarsText(cents: number): string {
  const dollars = Number((cents / 100).toFixed(6));
  return Number.isInteger(cents) ? dollars.toFixed(2) : String(dollars);
}

/** Thrown by the readers below: the first field that is not a number, and why. */
export class FormProblem extends Error {
  constructor(readonly problem: FieldProblem) {
    super(problem.error);
  }
}

/** The number in `text`, or a FormProblem naming the field ('Price per gram is missing.'). */
export function requireNumber(text: string, field: string, label: string): number {
  const n = readNumber(text);
  if (n !== null) return n;
  throw new FormProblem({
    field,
    error: text.trim() === '' ? `${label} is missing.` : `${label} must be a number.`,
  });
}
