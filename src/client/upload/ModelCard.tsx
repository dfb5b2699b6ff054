import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDimensions, formatMoney, formatVolume } from '../../shared/format.ts';
import type { ModelPayload } from '../../shared/models.ts';
import { previewInColor } from '../../shared/preview-color.ts';
import { addCartItem, replaceCartModel } from '../cart/cart-store.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { useShopInfo } from '../shop-info.ts';
import { Alert } from '../ui/Alert.tsx';
import { viewMeshUrl } from '../viewer/view-url.ts';
import { ColorOptions } from './ColorOptions.tsx';
import { type Choices, listPrice, MAX_NOTES, MAX_QUANTITY, parseQuantity, toCartItem } from './choices.ts';
import { scaleModel } from './model-api.ts';
import { minimumNote, tiersText } from './price-notes.ts';
import { StrengthOptions } from './StrengthOptions.tsx';
import { UPLOAD_MSG } from './upload-messages.ts';
import { useQuote } from './use-quote.ts';

/** What the viewer opens: the original file, drawn at the model's scale. */
export type ViewRequest = { url: string; fileName: string; color: string; scale?: number };

const INCH = 25.4;

/** One uploaded model: what we measured, the picks, the live price, the 3D view and "Add to cart". */
export function ModelCard({
  model,
  choices,
  onChoose,
  onReplace,
  onRemove,
  onView,
}: {
  model: ModelPayload;
  /** The picks live with the card list, which remembers them across reloads. */
  choices: Choices;
  onChoose: (choices: Partial<Choices>) => void;
  /** The model after rescaling: a new id, analysed and priced again. */
  onReplace: (model: ModelPayload) => void;
  onRemove: () => void;
  onView: (view: ViewRequest) => void;
}) {
  const id = useId();
  const { username } = useSession();
  // Taxes are added at checkout only with automatic tax: the price note says so (as before until known).
  const shop = useShopInfo();
  const [added, setAdded] = useState(false);
  const [scaling, setScaling] = useState(false);
  const [scaleError, setScaleError] = useState('');
  const [previewFailed, setPreviewFailed] = useState('');
  // A big model's picture is drawn just after its price: until it arrives, the frame says so.
  const [previewShown, setPreviewShown] = useState('');

  const quantity = parseQuantity(choices.quantityText);
  const {
    quote,
    pending,
    error: quoteError,
  } = useQuote({
    modelId: model.id,
    color: choices.color,
    strength: choices.strength,
    quantity,
  });
  const unitPrice = quote?.unitPrice ?? listPrice(model, choices.strength);
  const lineTotal = quote?.lineTotal ?? (quantity === null ? null : unitPrice * quantity);
  const discount = quote?.breakdown?.discountPercent ?? 0;
  // Why small parts cost the same at every strength, and the discounts before a line reaches one.
  const pricing = shop?.pricing;
  const priceNote = minimumNote({ prices: model.prices, strength: choices.strength, unitPrice, pricing });
  const tiers = tiersText(pricing);

  const change = (patch: Partial<Choices>) => {
    onChoose(patch);
    setAdded(false);
  };

  async function rescale() {
    setScaling(true);
    setScaleError('');
    const result = await scaleModel(model.id, INCH);
    setScaling(false);
    if (result.ok) {
      setAdded(false);
      // One model everywhere: the cart's lines of the old size become the new model too.
      replaceCartModel(model.id, result.value);
      onReplace(result.value);
    } else {
      setScaleError(result.error);
    }
  }

  function addToCart() {
    if (quantity === null || !model.fits) return;
    addCartItem(toCartItem(model, { ...choices, quantity }, unitPrice));
    setAdded(true);
  }

  const titleId = `${id}-title`;
  const tooBigId = `${id}-too-big`;
  const quantityId = `${id}-quantity`;
  const quantityHintId = `${id}-quantity-hint`;
  const tiersId = `${id}-tiers`;
  const notesId = `${id}-notes`;
  const notesCountId = `${id}-notes-count`;

  return (
    <article className="card model-card" aria-labelledby={titleId}>
      <header className="model-head">
        <div className="model-preview">
          {model.previewImage && previewFailed !== model.previewImage ? (
            <>
              <img
                src={previewInColor(model.previewImage, choices.color)}
                alt={`Preview of ${model.fileName}`}
                width="160"
                height="160"
                onLoad={() => setPreviewShown(model.previewImage)}
                onError={() => setPreviewFailed(model.previewImage)}
              />
              {previewShown !== model.previewImage && (
                <span className="preview-loading" role="status">
                  Drawing preview…
                </span>
              )}
            </>
          ) : (
            <span className="no-preview">No Preview</span>
          )}
        </div>
        <div className="model-summary">
          <h3 id={titleId} className="model-name">
            {model.fileName}
          </h3>
          <dl className="model-facts">
            <div>
              <dt>Size</dt>
              <dd data-testid="dimensions">{formatDimensions(model.dimensions)}</dd>
            </div>
            <div>
              <dt>Volume</dt>
              <dd data-testid="volume">{formatVolume(model.volumeCm3)}</dd>
            </div>
            <div>
              <dt>Format</dt>
              <dd>
                {model.format?.toUpperCase()} · {formatCount(model.triangles, 'triangle')}
              </dd>
            </div>
          </dl>
          <button
            type="button"
            className="link-button danger model-remove"
            aria-label={`Remove ${model.fileName}`}
            onClick={onRemove}
          >
            Remove
          </button>
        </div>
      </header>

      {model.warnings.length > 0 && (
        <ul className="model-warnings">
          {model.warnings.map((w) => (
            <li key={w.code} className="alert alert-warning">
              <span>{w.message}</span>
              {w.code === 'maybe_inches' && (
                <button type="button" className="button button-small" disabled={scaling} onClick={rescale}>
                  {scaling ? 'Scaling…' : `Scale by ${INCH}`}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {scaleError && <Alert kind="error">{scaleError}</Alert>}

      <div className="model-options">
        <ColorOptions name={`${id}-color`} value={choices.color} onChange={(color) => change({ color })} />
        <StrengthOptions
          name={`${id}-strength`}
          model={model}
          value={choices.strength}
          onChange={(strength) => change({ strength })}
          note={priceNote}
        />
        <div className="model-fields">
          <div className="field quantity-field">
            <label htmlFor={quantityId}>Quantity</label>
            <input
              id={quantityId}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_QUANTITY}
              step={1}
              value={choices.quantityText}
              aria-invalid={quantity === null}
              aria-describedby={
                [quantity === null && quantityHintId, tiers && tiersId].filter(Boolean).join(' ') || undefined
              }
              onChange={(e) => change({ quantityText: e.target.value })}
            />
            {quantity === null && (
              <small id={quantityHintId} className="field-error">
                Enter a whole number from 1 to {MAX_QUANTITY}.
              </small>
            )}
            {tiers && (
              <small id={tiersId} className="hint" data-testid="quantity-tiers">
                {tiers}
              </small>
            )}
          </div>
          <div className="field notes-field">
            <label htmlFor={notesId}>Notes for our print team (optional)</label>
            <textarea
              id={notesId}
              rows={2}
              maxLength={MAX_NOTES}
              value={choices.notes}
              aria-describedby={notesCountId}
              placeholder="e.g. orientation, finish, deadline"
              onChange={(e) => change({ notes: e.target.value.slice(0, MAX_NOTES) })}
            />
            <small id={notesCountId} className="hint notes-count">
              {choices.notes.length}/{MAX_NOTES}
            </small>
          </div>
        </div>
      </div>

      <div className="model-buy">
        <div
          className="price-box"
          data-state={quote ? 'quoted' : 'estimate'}
          aria-live="polite"
          aria-atomic="true"
        >
          <div className="price-line">
            <span className="price-label">Unit price</span>
            <span className="price-value" data-testid="unit-price">
              {formatMoney(unitPrice)}
            </span>
          </div>
          <div className="price-line price-total">
            <span className="price-label">
              Total{quantity !== null && quantity > 1 ? ` for ${quantity}` : ''}
            </span>
            <span className="price-value" data-testid="line-total">
              {lineTotal === null ? '–' : formatMoney(lineTotal)}
            </span>
          </div>
          <p className="price-note">
            {pending
              ? 'Updating the price…'
              : quoteError
                ? quoteError
                : discount > 0
                  ? `Includes a ${discount}% quantity discount.`
                  : shop && shop.tax !== 'automatic'
                    ? 'Before shipping.'
                    : 'Before taxes and shipping.'}
          </p>
        </div>
        <div className="model-actions">
          <button
            type="button"
            className="button"
            onClick={() =>
              onView({
                url: viewMeshUrl(model.id),
                fileName: model.fileName,
                color: choices.color,
                scale: model.scale,
              })
            }
          >
            View 3D
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!model.fits || quantity === null}
            aria-describedby={model.fits ? undefined : tooBigId}
            onClick={addToCart}
          >
            Add to cart
          </button>
        </div>
        {!model.fits && (
          <p id={tooBigId} className="field-error too-big">
            {UPLOAD_MSG.tooBig}
          </p>
        )}
        {added && (
          <Alert kind="success">
            <strong>Added to cart</strong> · <Link to="/#cart-section">View cart</Link>
            {!username && (
              <>
                {' '}
                · <Link to="/login">Log in</Link> to check out.
              </>
            )}
          </Alert>
        )}
      </div>
    </article>
  );
}
