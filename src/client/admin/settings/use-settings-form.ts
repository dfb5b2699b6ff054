import { type FormEvent, useMemo, useState } from 'react';
import type { ApiPath } from '../../../shared/api.ts';
import type { FieldProblem } from './form-numbers.ts';
import { saveSettings } from './settings-api.ts';
import { focusField, sameValues } from './use-section.ts';

/**
 * One settings section's form (shipping, production, shop): the text the admin types, its values as parsed,
 * the form's own problem (shown once saving is asked for) or the server's (as it comes), and Save: PUT the
 * full values, then show the section as the server now has it.
 */
export function useSettingsForm<V, F, P extends { values: V }>(opts: {
  section: string;
  path: ApiPath<'PUT'>;
  loaded: P;
  toForm: (values: V) => F;
  parse: (form: F) => { values: V } | FieldProblem;
  onSaved: (payload: P) => void;
  savedMessage: string;
  /** The input to focus for a problem the server names (default: that field). */
  focusOf?: (field: string | null) => string | null;
}) {
  const { section, path, loaded, toForm, parse, onSaved, savedMessage } = opts;
  const focusOf = opts.focusOf ?? ((field: string | null) => field);
  const [form, setForm] = useState<F>(() => toForm(loaded.values));
  const [serverProblem, setServerProblem] = useState<FieldProblem | null>(null);
  const [showFormProblem, setShowFormProblem] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const parsed = useMemo(() => parse(form), [parse, form]);
  const values = 'values' in parsed ? parsed.values : null;
  const problem: FieldProblem | null = 'values' in parsed ? serverProblem : showFormProblem ? parsed : null;
  const dirty = !values || !sameValues(values, loaded.values);

  function edit(change: (form: F) => F) {
    setForm(change);
    setServerProblem(null);
    setStatus('');
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!values) {
      setShowFormProblem(true);
      focusField(section, 'field' in parsed ? parsed.field : null);
      return;
    }
    setBusy(true);
    setStatus('');
    // Each section's PUT takes `{ values }` of its own shape: the caller's path and values go together.
    const result = await saveSettings<P, typeof path>(path, { values } as never);
    setBusy(false);
    if (!result.ok) {
      setServerProblem({ field: result.field ?? '', error: result.error });
      focusField(section, focusOf(result.field));
      return;
    }
    onSaved(result.data);
    setForm(toForm(result.data.values));
    setShowFormProblem(false);
    setStatus(savedMessage);
  }

  return { form, edit, problem, busy, status, dirty, save };
}
