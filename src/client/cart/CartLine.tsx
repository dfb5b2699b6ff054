import { colorName, colorSwatch, MAX_ITEM_QUANTITY, strengthLabel } from '../../shared/catalog.ts';
import { formatDimensions, formatMoney, formatVolume } from '../../shared/format.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import type { CartItem } from './cart-item.ts';
import { isPriced, lineErrorText, type QuotedLine } from './cart-quote.ts';
import { removeCartItem, setCartQuantity } from './cart-store.ts';

/** What a line or the total shows in place of an amount the server has not given (yet). */
export const UNPRICED_TEXT = { updating: 'updating…', unavailable: 'price unavailable' } as const;
export type Unpriced = keyof typeof UNPRICED_TEXT;

/**
 * One cart line of docs/pages.md, priced by the server once its quote answered (`quoted`); until then its
 * total says it is updating (or unavailable when the quote failed): never a total worked out here.
 */
export function CartLine({
  item,
  index,
  quoted,
  unpriced,
}: {
  item: CartItem;
  /** The line's position in the cart (the server's messages may name it by that). */
  index: number;
  quoted: QuotedLine | undefined;
  /** What the line total says while `quoted` is unknown. */
  unpriced: Unpriced;
}) {
  const priced = isPriced(quoted) ? quoted : null;
  const refused =
    quoted && !priced ? lineErrorText((quoted as { error: string }).error, index, item.fileName) : '';
  // The unit price last quoted for this model, color and strength (a quantity does not change it).
  const unitPrice = priced?.unitPrice ?? item.cost;
  const errorId = `cart-line-error-${item.id}`;
  return (
    <li
      className={`cart-item card${refused ? ' cart-item-refused' : ''}`}
      aria-describedby={refused ? errorId : undefined}
    >
      <div className="thumb">
        {item.previewImage ? (
          <img
            src={previewInColor(item.previewImage, item.color)}
            alt={`Preview of ${item.fileName}`}
            width="96"
            height="96"
          />
        ) : (
          <span className="no-preview">No Preview</span>
        )}
      </div>
      <div className="cart-item-body">
        <p className="file-name">{item.fileName}</p>
        <p className="meta">
          <span className="swatch small" style={{ background: colorSwatch(item.color) }} aria-hidden="true" />{' '}
          {colorName(item.color)} · {strengthLabel(item.strength)} ({item.strength}/5) ·{' '}
          <span data-testid="unit-price">{formatMoney(unitPrice)}</span> each
        </p>
        <p className="meta">
          {item.volumeCm3 > 0 && <>{formatVolume(item.volumeCm3)} · </>}
          {formatDimensions(item.dimensions)}
        </p>
        {item.notes && <p className="notes">Notes: {item.notes}</p>}
        {refused && (
          <p className="line-error" id={errorId} role="alert">
            {refused}
          </p>
        )}
      </div>
      <div className="cart-item-side">
        <fieldset className="quantity">
          <legend className="visually-hidden">Quantity of {item.fileName}</legend>
          <button
            type="button"
            className="button button-small"
            aria-label="Decrease quantity"
            onClick={() => setCartQuantity(item.id, item.quantity - 1)}
          >
            −
          </button>
          <input
            type="number"
            min={0}
            max={MAX_ITEM_QUANTITY}
            step={1}
            inputMode="numeric"
            aria-label="Quantity"
            value={item.quantity}
            onChange={(e) => {
              const q = Number(e.target.value);
              if (e.target.value !== '' && Number.isInteger(q) && q >= 0) setCartQuantity(item.id, q);
            }}
          />
          <button
            type="button"
            className="button button-small"
            aria-label="Increase quantity"
            disabled={item.quantity >= MAX_ITEM_QUANTITY}
            title={item.quantity >= MAX_ITEM_QUANTITY ? `At most ${MAX_ITEM_QUANTITY} per line` : undefined}
            onClick={() => setCartQuantity(item.id, item.quantity + 1)}
          >
            +
          </button>
        </fieldset>
        <div className="line-price">
          <p className="line-total" data-testid="line-total">
            {refused ? (
              <span className="unavailable">Unavailable</span>
            ) : priced ? (
              formatMoney(priced.lineTotal)
            ) : (
              <span className="unpriced">{UNPRICED_TEXT[unpriced]}</span>
            )}
          </p>
          {priced && priced.discountPercent > 0 && (
            <p className="discount" data-testid="discount">
              Includes a {priced.discountPercent}% quantity discount.
            </p>
          )}
        </div>
        <button type="button" className="link-button danger" onClick={() => removeCartItem(item.id)}>
          Remove
        </button>
      </div>
    </li>
  );
}
