import { useEffect, useState } from 'react';
import type { ApiPath } from '../../../shared/api.ts';
import { load } from '../admin-api.ts';

/** A settings section as GET answers it, its load error, and a setter for the answer of a save. */
export function useSection<T>(path: ApiPath<'GET'>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    const controller = new AbortController();
    load<T>(path, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        setData(result.data);
        setError('');
      } else setError(result.error);
    });
    return () => controller.abort();
  }, [path]);
  return { data, error, setData };
}

/** The same values, whatever the order of their keys. */
export function sameValues(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The id of a field's input: 'pricing-quantityTiers-1-percent'. */
export const fieldId = (section: string, field: string) => `${section}-${field.replace(/\./g, '-')}`;

/** Moves the focus to the field a refusal names, when the page has it. */
export function focusField(section: string, field: string | null) {
  if (!field) return;
  const el = document.getElementById(fieldId(section, field));
  if (el instanceof HTMLElement) el.focus();
}
