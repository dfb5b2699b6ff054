import {
  fromShown,
  PRICING_FIELDS,
  type PricingValues,
  settingLabel,
  toShown,
} from '../../../shared/admin-settings.ts';
import { STRENGTHS } from '../../../shared/catalog.ts';
import { dollarsText, type FieldProblem, FormProblem, numberText, requireNumber } from './form-numbers.ts';

// The pricing form's state: the text of each input in the panel's units (dollars, cents a gram, percent of
// infill), read back into the API's values (cents, fractions). The server checks the ranges; the form only
// says which field is not a number.

export type TierRow = { key: number; minQuantity: string; percent: string };
export type PricingForm = { fields: Record<string, string>; tiers: TierRow[] };

export const INFILL_KEYS = STRENGTHS.map((s) => `infillByStrength.${s.level}`);

let tierKeys = 0;
export const newTierRow = (minQuantity = '', percent = ''): TierRow => ({
  key: ++tierKeys,
  minQuantity,
  percent,
});

/** The text an input shows for one field of `values` ('pricePerGramCents', 'infillByStrength.3'). */
export function fieldText(values: PricingValues, field: string): string {
  const scalar = PRICING_FIELDS.find((f) => f.key === field);
  if (scalar) {
    const value = values[scalar.key];
    return scalar.shown === 'dollars' ? dollarsText(value) : numberText(toShown(scalar.shown, value));
  }
  const level = field.replace('infillByStrength.', '') as keyof PricingValues['infillByStrength'];
  return numberText(toShown('percent', values.infillByStrength[level]));
}

export function pricingToForm(values: PricingValues): PricingForm {
  const fields: Record<string, string> = {};
  for (const f of PRICING_FIELDS) fields[f.key] = fieldText(values, f.key);
  for (const key of INFILL_KEYS) fields[key] = fieldText(values, key);
  return {
    fields,
    tiers: values.quantityTiers.map((t) => newTierRow(String(t.minQuantity), numberText(t.percent))),
  };
}

/** The values the form says, or the first field that is not a number. */
export function formToPricing(form: PricingForm): { values: PricingValues } | FieldProblem {
  try {
    const read = (field: string) =>
      requireNumber(form.fields[field] ?? '', field, settingLabel('pricing', field));
    const scalars = Object.fromEntries(
      PRICING_FIELDS.map((f) => [f.key, fromShown(f.shown, read(f.key))]),
    ) as Omit<PricingValues, 'infillByStrength' | 'quantityTiers'>;
    const infill = Object.fromEntries(
      STRENGTHS.map((s) => [String(s.level), fromShown('percent', read(`infillByStrength.${s.level}`))]),
    ) as PricingValues['infillByStrength'];
    const quantityTiers = form.tiers.map((t, i) => {
      const at = `quantityTiers.${i}`;
      return {
        minQuantity: requireNumber(
          t.minQuantity,
          `${at}.minQuantity`,
          settingLabel('pricing', `${at}.minQuantity`),
        ),
        percent: requireNumber(t.percent, `${at}.percent`, settingLabel('pricing', `${at}.percent`)),
      };
    });
    return { values: { ...scalars, infillByStrength: infill, quantityTiers } };
  } catch (err) {
    if (err instanceof FormProblem) return err.problem;
    throw err;
  }
}
