import { STRENGTHS, type Strength } from '../../shared/catalog.ts';
import { formatMoney } from '../../shared/format.ts';
import type { ModelPayload } from '../../shared/models.ts';
import { listPrice } from './choices.ts';

/**
 * Strength 1-5 as a radio group; each option shows its label, n/5 and its price for this model, and `note`
 * under them says why prices are what they are (the minimum price).
 */
export function StrengthOptions({
  name,
  model,
  value,
  onChange,
  note,
}: {
  name: string;
  model: Pick<ModelPayload, 'prices'>;
  value: Strength;
  onChange: (strength: Strength) => void;
  note?: string | null;
}) {
  const noteId = `${name}-note`;
  return (
    <fieldset className="option-group" aria-describedby={note ? noteId : undefined}>
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
      {note && (
        <p id={noteId} className="hint strength-note" data-testid="minimum-note">
          {note}
        </p>
      )}
    </fieldset>
  );
}
