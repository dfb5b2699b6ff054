import { z } from 'zod/mini';
import {
  COLOR_HEXES,
  DEFAULT_COLOR,
  DEFAULT_STRENGTH,
  MAX_ITEM_NOTES,
  MAX_ITEM_QUANTITY,
  STRENGTHS,
  type Strength,
} from '../../shared/catalog.ts';
import type { ModelPayload } from '../../shared/models.ts';
import type { NewCartItem } from '../cart/cart-item.ts';

// What the customer picks on a model card, and how a model plus those picks becomes a cart line.
// zod/mini, not zod: the same schemas at a quarter of the size in the upload tool's bundle.

export const MAX_QUANTITY = MAX_ITEM_QUANTITY;
export const MAX_NOTES = MAX_ITEM_NOTES;

/** A card's picks as read back from storage: a pick that does not read falls back to its default. */
export const choicesSchema = z.object({
  color: z.catch(z.enum(COLOR_HEXES), DEFAULT_COLOR),
  strength: z.catch(z.literal(STRENGTHS.map((s) => s.level)), DEFAULT_STRENGTH),
  /** The quantity field as typed; see parseQuantity. */
  quantityText: z.catch(z.string().check(z.maxLength(16)), '1'),
  notes: z.catch(z.string().check(z.maxLength(MAX_NOTES)), ''),
});
export type Choices = z.infer<typeof choicesSchema>;

export const DEFAULT_CHOICES: Choices = {
  color: DEFAULT_COLOR,
  strength: DEFAULT_STRENGTH,
  quantityText: '1',
  notes: '',
};

/** A whole number from 1 to MAX_QUANTITY (100), or null for anything else ('', '0', '1.5', '-2', 'abc'). */
export function parseQuantity(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= MAX_QUANTITY ? n : null;
}

/** The unit price of a strength at quantity 1, from the upload's price list. */
export function listPrice(model: Pick<ModelPayload, 'prices'>, strength: Strength): number {
  return model.prices[String(strength) as keyof ModelPayload['prices']];
}

/** The cart line (docs/domain.md) for this model and these picks; `unitPrice` in dollars. */
export function toCartItem(
  model: Pick<ModelPayload, 'id' | 'fileName' | 'previewImage' | 'volumeCm3' | 'dimensions'>,
  choices: Pick<Choices, 'color' | 'strength' | 'notes'> & { quantity: number },
  unitPrice: number,
): Required<NewCartItem> {
  return {
    filePath: model.id,
    fileName: model.fileName,
    color: choices.color,
    strength: choices.strength,
    cost: Math.round(unitPrice * 100) / 100,
    quantity: choices.quantity,
    previewImage: model.previewImage,
    volumeCm3: model.volumeCm3,
    dimensions: { x: model.dimensions.x, y: model.dimensions.y, z: model.dimensions.z },
    notes: choices.notes.slice(0, MAX_NOTES),
  };
}
