import { z } from 'zod/mini';
import { choicesSchema, DEFAULT_CHOICES } from './choices.ts';
import { SAVED_MODELS_KEY } from './saved-models-key.ts';

// The model cards of this browser, remembered so that they survive a reload and a visit to another page.
// Local storage, not session storage: a model belongs to the browser (its `visitor` cookie) or to the
// account, not to one tab, and the server keeps it for days (UPLOAD_RETENTION_HOURS), so a card should
// come back in a new tab or tomorrow, as the cart does. Only ids and picks are kept; each model is asked
// for again on load, and one the server no longer gives us (404) is forgotten then.
// Every change reads the list again and touches one card, so two tabs do not overwrite each other's cards.

export { SAVED_MODELS_KEY };
/** The newest cards kept: each one is a request when the page loads. */
export const MAX_SAVED_MODELS = 100;

export const savedModel = z.object({
  /** The card's own key: the same model may be on two cards with different picks. */
  key: z.string().check(z.minLength(1), z.maxLength(64)),
  /** The model's id on the server (after a rescale, the rescaled model's). */
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  choices: z.catch(choicesSchema, DEFAULT_CHOICES),
});
export type SavedModel = z.infer<typeof savedModel>;

// A version, so that a later format is ignored (or migrated) rather than misread.
const savedList = z.object({ version: z.literal(1), models: z.array(z.unknown()) });

/** The cards in a stored value, in order; anything unreadable is left out, a bad list reads as empty. */
export function parseSavedModels(text: string | null | undefined): SavedModel[] {
  if (!text) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const list = savedList.safeParse(data);
  if (!list.success) return [];
  const keys = new Set<string>();
  const models: SavedModel[] = [];
  for (const item of list.data.models) {
    const saved = savedModel.safeParse(item);
    if (!saved.success || keys.has(saved.data.key)) continue;
    keys.add(saved.data.key);
    models.push(saved.data);
  }
  return models.slice(-MAX_SAVED_MODELS);
}

export function serializeSavedModels(models: SavedModel[]): string {
  return JSON.stringify({ version: 1, models: models.slice(-MAX_SAVED_MODELS) });
}

/** The list with `model` in place of the card of the same key, or added at the end. */
export function withSavedModel(models: SavedModel[], model: SavedModel): SavedModel[] {
  return models.some((m) => m.key === model.key)
    ? models.map((m) => (m.key === model.key ? model : m))
    : [...models, model];
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function readSavedModels(): SavedModel[] {
  try {
    return parseSavedModels(storage()?.getItem(SAVED_MODELS_KEY));
  } catch {
    return [];
  }
}

function write(models: SavedModel[]) {
  try {
    if (models.length === 0) storage()?.removeItem(SAVED_MODELS_KEY);
    else storage()?.setItem(SAVED_MODELS_KEY, serializeSavedModels(models));
  } catch (err) {
    // Full or forbidden storage: the cards still work, they just will not come back after a reload.
    console.warn('Could not remember the model cards:', err);
  }
}

export const saveModel = (model: SavedModel) => write(withSavedModel(readSavedModels(), model));
export const forgetModel = (key: string) => write(readSavedModels().filter((m) => m.key !== key));
