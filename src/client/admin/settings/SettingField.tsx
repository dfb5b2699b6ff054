import type { ReactNode } from 'react';

// One setting's input: its label with the unit, the server's (or the form's) sentence under it, tied to the
// input with aria-describedby, its one-line explanation, and "Use the default" while it differs from it.

type Props = {
  id: string;
  label: string;
  unit?: string;
  help?: ReactNode;
  value: string;
  onChange: (text: string) => void;
  error?: string | undefined;
  /** The default as the input would show it; a reset link while the value differs. */
  defaultText?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  className?: string;
};

export function SettingField({
  id,
  label,
  unit,
  help,
  value,
  onChange,
  error,
  defaultText,
  inputMode = 'decimal',
  className,
}: Props) {
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const describedBy = [error ? errorId : '', help ? helpId : ''].filter(Boolean).join(' ') || undefined;
  const differs = defaultText !== undefined && value.trim() !== defaultText;
  return (
    <div
      className={['field', 'setting-field', error ? 'has-error' : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
    >
      <label htmlFor={id}>
        {label}
        {unit && <span className="setting-unit"> ({unit})</span>}
      </label>
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
      {help && (
        <small id={helpId} className="hint">
          {help}
        </small>
      )}
      {differs && (
        <button type="button" className="link-button setting-reset" onClick={() => onChange(defaultText)}>
          Use the default ({defaultText})
        </button>
      )}
    </div>
  );
}

/** The answer of a save: "Saving…" while it runs, then what happened, announced. */
export function SaveBar({
  busy,
  dirty,
  status,
  error,
  label = 'Save',
}: {
  busy: boolean;
  dirty: boolean;
  status: string;
  error: string;
  label?: string;
}) {
  return (
    <div className="settings-save">
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <p className="settings-save-state" role="status">
        {busy ? '' : status || (dirty ? 'You have unsaved changes.' : '')}
      </p>
      {error && (
        <p className="field-error settings-save-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
