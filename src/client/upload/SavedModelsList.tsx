import { type ReactNode, useId, useState } from 'react';
import { colorName, colorSwatch, strengthLabel } from '../../shared/catalog.ts';
import { formatDimensions, formatMoney } from '../../shared/format.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import { cartCount } from '../cart/cart-item.ts';
import { useCart } from '../cart/cart-store.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { listPrice, parseQuantity } from './choices.ts';
import type { Card } from './model-cards.ts';

/**
 * The saved models, newest first, one row each; an open row shows its full card (`renderCard`) in place.
 * The cart stays one tap away above the rows, however many there are.
 */
export function SavedModelsList({
  rows,
  open,
  onToggle,
  renderCard,
}: {
  rows: Card[];
  /** Keys of the rows shown as full cards. */
  open: string[];
  onToggle: (key: string) => void;
  renderCard: (card: Card) => ReactNode;
}) {
  const { loading } = useSession();
  const items = useCart();
  const count = cartCount(items);
  return (
    <div className="saved-models">
      <div className="saved-models-head">
        <p className="saved-models-count">Your models ({rows.length})</p>
        {/* The cart section is on the page whenever the cart holds something (HomePage). */}
        {items.length > 0 && !loading && (
          <a className="button button-small saved-models-cart" href="#cart-section">
            View cart ({count})
          </a>
        )}
      </div>
      <ul className="saved-list" aria-label="Your models, newest first">
        {rows.map((card) => {
          const isOpen = open.includes(card.key);
          return (
            <SavedModelRow key={card.key} card={card} open={isOpen} onToggle={() => onToggle(card.key)}>
              {isOpen && renderCard(card)}
            </SavedModelRow>
          );
        })}
      </ul>
    </div>
  );
}

function SavedModelRow({
  card,
  open,
  onToggle,
  children,
}: {
  card: Card;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const id = useId();
  const model = card.model!;
  const { color, strength, quantityText } = card.choices;
  const quantity = parseQuantity(quantityText);
  const [thumbFailed, setThumbFailed] = useState('');
  const actionId = `${id}-action`;
  const nameId = `${id}-name`;
  const factsId = `${id}-facts`;
  const priceId = `${id}-price`;
  const panelId = `${id}-panel`;

  return (
    <li className={open ? 'saved-model is-open' : 'saved-model'}>
      {/* The whole row is the button ("Edit cube.stl"), its facts read as its description. */}
      <button
        type="button"
        className="saved-row"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-labelledby={`${actionId} ${nameId}`}
        aria-describedby={`${factsId} ${priceId}`}
        onClick={onToggle}
      >
        <span className="saved-thumb">
          {model.previewImage && thumbFailed !== model.previewImage ? (
            <img
              src={previewInColor(model.previewImage, color)}
              alt=""
              width="48"
              height="48"
              loading="lazy"
              onError={() => setThumbFailed(model.previewImage)}
            />
          ) : (
            <span className="no-preview">No Preview</span>
          )}
        </span>
        <span className="saved-name" id={nameId}>
          {model.fileName}
        </span>
        <span className="saved-facts" id={factsId}>
          <span className="saved-size">{formatDimensions(model.dimensions)}</span>{' '}
          <span className="saved-picks">
            <span className="swatch small" style={{ background: colorSwatch(color) }} aria-hidden="true" />{' '}
            {colorName(color)} · {strengthLabel(strength)}
            {quantity !== null && quantity > 1 && ` · Qty ${quantity}`}
          </span>
        </span>
        <span className="saved-price" id={priceId}>
          {model.fits ? formatMoney(listPrice(model, strength)) : 'Too big to print'}
        </span>
        <span className="saved-action">
          <span id={actionId}>{open ? 'Close' : 'Edit'}</span>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16" className="saved-chevron">
            <path d="M3.5 6l4.5 4.5L12.5 6" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </span>
      </button>
      {open && (
        <div id={panelId} className="saved-panel">
          {children}
        </div>
      )}
    </li>
  );
}
