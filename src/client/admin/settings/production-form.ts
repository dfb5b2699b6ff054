import { type ProductionValues, settingLabel } from '../../../shared/admin-settings.ts';
import { type FieldProblem, FormProblem, numberText, requireNumber } from './form-numbers.ts';

// The production form: numbers as typed, the weekdays ticked, the days as date inputs give them
// (YYYY-MM-DD; an empty one is left out), read back into the API's values.

export type ProductionForm = {
  printers: string;
  hoursPerDay: string;
  workingDays: number[];
  cutoff: string;
  timeZone: string;
  country: ProductionValues['holidays']['country'];
  region: string;
  extraDays: string[];
  workedHolidays: string[];
};

export const WEEKDAYS = [
  { day: 1, name: 'Monday' },
  { day: 2, name: 'Tuesday' },
  { day: 3, name: 'Wednesday' },
  { day: 4, name: 'Thursday' },
  { day: 5, name: 'Friday' },
  { day: 6, name: 'Saturday' },
  { day: 0, name: 'Sunday' },
] as const;

export function productionToForm(v: ProductionValues): ProductionForm {
  return {
    printers: numberText(v.printers),
    hoursPerDay: numberText(v.hoursPerDay),
    workingDays: [...v.workingDays],
    cutoff: v.cutoff,
    timeZone: v.timeZone,
    country: v.holidays.country,
    region: v.holidays.region ?? '',
    extraDays: [...v.holidays.extraDays],
    workedHolidays: [...v.holidays.workingDays],
  };
}

export function formToProduction(form: ProductionForm): { values: ProductionValues } | FieldProblem {
  try {
    const region = form.region.trim().toUpperCase();
    const days = (list: string[]) => list.map((d) => d.trim()).filter(Boolean);
    return {
      values: {
        printers: requireNumber(form.printers, 'printers', settingLabel('production', 'printers')),
        hoursPerDay: requireNumber(
          form.hoursPerDay,
          'hoursPerDay',
          settingLabel('production', 'hoursPerDay'),
        ),
        // Monday first on the page, Sunday (0) first in the values, as the defaults have it.
        workingDays: [...form.workingDays].sort((a, b) => a - b),
        cutoff: form.cutoff.trim(),
        timeZone: form.timeZone.trim(),
        holidays: {
          country: form.country,
          ...(region ? { region } : {}),
          extraDays: days(form.extraDays),
          workingDays: days(form.workedHolidays),
        },
      },
    };
  } catch (err) {
    if (err instanceof FormProblem) return err.problem;
    throw err;
  }
}
