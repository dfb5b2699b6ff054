import { settingLabel } from '../../../shared/admin-settings.ts';
import type { SHIPPING_COUNTRIES } from '../../../shared/catalog.ts';
import type { ShippingMethod, ShippingSettings } from '../../../shared/shipping.ts';
import { dollarsToCents } from '../admin-format.ts';
import { dollarsText, type FieldProblem, FormProblem, readNumber } from './form-numbers.ts';

// The shipping form: per country its methods as typed (dollars, days), read back into the API's methods
// (cents). A method added here gets its id from its name when saved; an existing one keeps its id, which
// orders and the hosted page name.

export type Country = (typeof SHIPPING_COUNTRIES)[number];
export type MethodRow = {
  key: number;
  /** '' for a method added in this form. */
  id: string;
  name: string;
  price: string;
  transitMin: string;
  transitMax: string;
  /** '' when the method is never free. */
  freeFrom: string;
};
export type ShippingForm = Record<Country, MethodRow[]>;

let rowKeys = 0;
export function newMethodRow(m?: ShippingMethod): MethodRow {
  return {
    key: ++rowKeys,
    id: m?.id ?? '',
    name: m?.name ?? '',
    price: m ? dollarsText(m.priceCents) : '',
    transitMin: m ? String(m.transitDays.min) : '',
    transitMax: m ? String(m.transitDays.max) : '',
    freeFrom: m?.freeFromCents == null ? '' : dollarsText(m.freeFromCents),
  };
}

export function shippingToForm(values: ShippingSettings): ShippingForm {
  return { US: values.US.map(newMethodRow), CA: values.CA.map(newMethodRow) };
}

/** 'Local pickup' in the US -> 'us-local-pickup'; a suffix when the country has that id already. */
export function methodIdFor(country: Country, name: string, taken: ReadonlySet<string>): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  const base = `${country.toLowerCase()}-${slug || 'method'}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

function money(text: string, field: string, label: string): number {
  const cents = dollarsToCents(text);
  if (cents !== null) return cents;
  throw new FormProblem({
    field,
    error: text.trim() === '' ? `${label} is missing.` : `${label} must be an amount in dollars, like 6.95.`,
  });
}

function days(text: string, field: string, label: string): number {
  const n = readNumber(text);
  if (n !== null) return n;
  throw new FormProblem({
    field,
    error: text.trim() === '' ? `${label} is missing.` : `${label} must be a number.`,
  });
}

/** The methods the form says, or the first field that is not a number or an amount. */
export function formToShipping(form: ShippingForm): { values: ShippingSettings } | FieldProblem {
  try {
    const read = (country: Country) => {
      const taken = new Set(form[country].map((r) => r.id).filter(Boolean));
      return form[country].map((row, i) => {
        const at = `${country}.${i}`;
        const label = (part: string) => settingLabel('shipping', `${at}.${part}`);
        let id = row.id;
        if (!id) {
          id = methodIdFor(country, row.name, taken);
          taken.add(id);
        }
        return {
          id,
          name: row.name.trim(),
          priceCents: money(row.price, `${at}.priceCents`, label('priceCents')),
          transitDays: {
            min: days(row.transitMin, `${at}.transitDays.min`, label('transitDays.min')),
            max: days(row.transitMax, `${at}.transitDays.max`, label('transitDays.max')),
          },
          freeFromCents:
            row.freeFrom.trim() === ''
              ? null
              : money(row.freeFrom, `${at}.freeFromCents`, label('freeFromCents')),
        };
      });
    };
    return { values: { US: read('US'), CA: read('CA') } };
  } catch (err) {
    if (err instanceof FormProblem) return err.problem;
    throw err;
  }
}
