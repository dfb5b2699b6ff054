import { COLORS, type ColorHex } from '../../shared/catalog.ts';

/** The seven colors as a radio group: a swatch and the name on each option. */
export function ColorOptions({
  name,
  value,
  onChange,
}: {
  name: string;
  value: ColorHex;
  onChange: (color: ColorHex) => void;
}) {
  return (
    <fieldset className="option-group">
      <legend>Color</legend>
      <div className="color-options">
        {COLORS.map((c) => (
          <label key={c.hex} className="option color-option">
            <input
              type="radio"
              name={name}
              value={c.hex}
              checked={value === c.hex}
              onChange={() => onChange(c.hex)}
            />
            <span className="option-face">
              <span className="swatch" style={{ background: c.hex }} aria-hidden="true" />
              {c.name}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
