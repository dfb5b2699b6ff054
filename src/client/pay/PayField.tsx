import { type ReactNode, useId } from 'react';

type Props = {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** This field's problem, shown under it and announced. */
  error?: string;
  /** The id of a hint that describes the field (e.g. the test cards). */
  hintId?: string;
  /** The id of a message elsewhere that is about this field (the form's payment error). */
  alsoDescribedBy?: string;
  as?: 'input' | 'select';
  children?: ReactNode;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  placeholder?: string;
  maxLength?: number;
};

/** A labelled input or select with its error next to it (aria-invalid, aria-describedby, role=alert). */
export function PayField({
  label,
  name,
  value,
  onChange,
  error,
  hintId,
  alsoDescribedBy,
  as = 'input',
  children,
  ...rest
}: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : undefined, alsoDescribedBy].filter(Boolean).join(' ');
  const common = {
    id,
    name,
    value,
    'aria-invalid': error || alsoDescribedBy ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {as === 'select' ? (
        <select {...common} autoComplete={rest.autoComplete} onChange={(e) => onChange(e.target.value)}>
          {children}
        </select>
      ) : (
        <input {...common} type="text" {...rest} onChange={(e) => onChange(e.target.value)} />
      )}
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
