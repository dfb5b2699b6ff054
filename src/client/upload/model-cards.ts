import type { ModelPayload } from '../../shared/models.ts';
import { type Choices, DEFAULT_CHOICES } from './choices.ts';
import type { SavedModel } from './saved-models.ts';

// The priced model cards, in the order they came: uploaded on this page, or remembered from an earlier
// one and asked for again.

export type Card = {
  key: string;
  /** The model's id on the server (the rescaled model's after a rescale). */
  id: string;
  choices: Choices;
  /**
   * loading: a remembered card being asked for again; unreachable: no answer (network, server error),
   * kept to ask again; ready: the server's model is here.
   */
  status: 'loading' | 'ready' | 'unreachable';
  /** Null until the server answers; a card is shown once it has its model. */
  model: ModelPayload | null;
};

export type CardAction =
  | { type: 'uploaded'; key: string; model: ModelPayload }
  | { type: 'fetched'; key: string; model: ModelPayload }
  | { type: 'gone'; key: string; id: string }
  | { type: 'unreachable'; key: string; id: string }
  | { type: 'retry' }
  | { type: 'choose'; key: string; choices: Partial<Choices> }
  | { type: 'rescaled'; key: string; model: ModelPayload }
  | { type: 'remove'; key: string }
  /** The account's models from the server (newest first), each with a new card key. */
  | { type: 'listed'; models: Array<{ key: string; model: ModelPayload }> }
  | { type: 'clear' };

/**
 * The remembered cards, in their order, each waiting for the server. A model already seen on this page
 * (`known`) is shown at once while it is asked for again.
 */
export function restoreCards(
  saved: SavedModel[],
  known: (id: string) => ModelPayload | undefined = () => undefined,
): Card[] {
  return saved.map((s) => ({ ...s, status: 'loading', model: known(s.id) ?? null }));
}

export const toSavedModel = ({ key, id, choices }: Card): SavedModel => ({ key, id, choices });

const update = (cards: Card[], key: string, change: (c: Card) => Card) =>
  cards.map((c) => (c.key === key ? change(c) : c));

export function cardsReducer(cards: Card[], action: CardAction): Card[] {
  switch (action.type) {
    case 'uploaded':
      return [
        ...cards,
        {
          key: action.key,
          id: action.model.id,
          choices: DEFAULT_CHOICES,
          status: 'ready',
          model: action.model,
        },
      ];
    // The answers about a remembered model count only while the card still shows that model (a rescale
    // may have replaced it meanwhile).
    case 'fetched':
      return update(cards, action.key, (c) =>
        c.id === action.model.id ? { ...c, status: 'ready', model: action.model } : c,
      );
    case 'gone':
      return cards.filter((c) => !(c.key === action.key && c.id === action.id));
    case 'unreachable':
      // A card already on screen stays as it is; one never shown waits to be asked for again.
      return update(cards, action.key, (c) =>
        c.id === action.id && c.status === 'loading'
          ? { ...c, status: c.model ? 'ready' : 'unreachable' }
          : c,
      );
    case 'retry':
      return cards.map((c) => (c.status === 'unreachable' ? { ...c, status: 'loading' } : c));
    case 'choose':
      return update(cards, action.key, (c) => ({ ...c, choices: { ...c.choices, ...action.choices } }));
    case 'rescaled':
      return update(cards, action.key, (c) => ({
        ...c,
        id: action.model.id,
        status: 'ready',
        model: action.model,
      }));
    case 'remove':
      return cards.filter((c) => c.key !== action.key);
    case 'listed': {
      // Models uploaded on another device come first, oldest to newest, before this browser's cards.
      const onCards = new Set(cards.map((c) => c.id));
      const added: Card[] = action.models
        .filter(({ model }) => !onCards.has(model.id))
        .reverse()
        .map(({ key, model }) => ({ key, id: model.id, choices: DEFAULT_CHOICES, status: 'ready', model }));
      return added.length ? [...added, ...cards] : cards;
    }
    case 'clear':
      return [];
  }
}
