import type { ModelPayload } from '../../shared/models.ts';
import { type Choices, DEFAULT_CHOICES } from './choices.ts';
import type { SavedModel } from './saved-models.ts';

// The priced model cards, oldest first, in the order they came: uploaded on this page, remembered from an
// earlier one and asked for again, or listed by the server from another device (saved-list.ts shows them
// newest first).

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
      // The server lists the account's models newest first. Each one this page lacks (uploaded on another
      // device) goes in just after the newest card the server lists as older, so the cards stay in upload
      // order, oldest first, across devices; a card the server does not list keeps its place.
      const rank = new Map(action.models.map(({ model }, i) => [model.id, i]));
      const onCards = new Set(cards.map((c) => c.id));
      const added = action.models.filter(({ model }) => !onCards.has(model.id)).reverse();
      if (!added.length) return cards;
      const next = [...cards];
      for (const { key, model } of added) {
        const age = rank.get(model.id) ?? 0;
        let at = 0;
        next.forEach((c, i) => {
          if ((rank.get(c.id) ?? -1) > age) at = i + 1;
        });
        next.splice(at, 0, { key, id: model.id, choices: DEFAULT_CHOICES, status: 'ready', model });
      }
      return next;
    }
    case 'clear':
      return [];
  }
}
