import { STRENGTHS, type Strength } from '../../shared/catalog.ts';
import { formatMoney } from '../../shared/format.ts';
import type { ModelPayload } from '../../shared/models.ts';
import { listPrice } from './choices.ts';

/** Strength 1-5 as a radio group; each option shows its label, n/5 and its price for this model. */
export function StrengthOptions({
  name,
  model,
  value,
  onChange,
}: {
  name: string;
  model: Pick<ModelPayload, 'prices'>;
  value: Strength;
  onChange: (strength: Strength) => void;
}) {
  return (
    <fieldset className="option-group">
      <legend>Strength</legend>
      <div className="strength-options">
        {STRENGTHS.map((s) => (
          <label key={s.level} className="option strength-option">
            <input
              type="radio"
              name={name}
              value={s.level}
              checked={value === s.level}
              onChange={() => onChange(s.level)}
            />
            <span className="option-face">
              <span className="strength-name">{s.label}</span>
              <span className="strength-level">{s.level}/5</span>
              <span className="strength-price">{formatMoney(listPrice(model, s.level))}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
