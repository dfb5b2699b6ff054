import { useId } from 'react';
import { formatMoney } from '../../shared/format.ts';
import { businessDaysText, type ShippingOption } from './simulator-form.ts';

/** 'Free', or the price: how Stripe Checkout shows a shipping rate's amount. */
export const shippingPriceText = (amount: number): string => (amount === 0 ? 'Free' : formatMoney(amount));

/**
 * The session's shipping methods as Stripe Checkout lists them: a radio group, each option its name, the
 * business days to arrival and its price; the server's refusal of the choice shown under the group.
 */
export function ShippingOptions({
  options,
  value,
  onChange,
  disabled,
  error,
  alsoDescribedBy,
}: {
  options: readonly ShippingOption[];
  /** The chosen method's id. */
  value: string;
  onChange: (id: string) => void;
  disabled: boolean;
  /** The choice's problem, shown under the group and announced. */
  error?: string;
  /** The id of a message elsewhere that is about the choice (the form's payment error). */
  alsoDescribedBy?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : undefined, alsoDescribedBy].filter(Boolean).join(' ');
  // A session made before shipping methods offers none: nothing to choose, as before.
  if (options.length === 0) return null;
  return (
    <fieldset disabled={disabled} className="sim-group">
      <legend>Shipping method</legend>
      <div className="sim-ship-options">
        {options.map((o) => (
          <label key={o.id} className="sim-ship-option">
            <input
              type="radio"
              name="shippingOption"
              value={o.id}
              checked={o.id === value}
              onChange={() => onChange(o.id)}
              aria-invalid={error || alsoDescribedBy ? true : undefined}
              aria-describedby={describedBy || undefined}
            />
            <span className="sim-ship-text">
              <span className="sim-ship-name">{o.name}</span>{' '}
              <span className="sim-ship-days">{businessDaysText(o.minDays, o.maxDays)}</span>
            </span>{' '}
            <span className="sim-ship-price">{shippingPriceText(o.amount)}</span>
          </label>
        ))}
      </div>
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}
