import { useEffect, useReducer } from 'react';
import type { Card } from './model-cards.ts';
import { openReducer, readOpenCards, stillOpen, writeOpenCards } from './saved-list.ts';

/** Which saved-model rows are open as full cards, kept for the tab; see saved-list.ts. */
export function useOpenCards(cards: Card[]) {
  const [open, dispatch] = useReducer(openReducer, undefined, readOpenCards);
  const shown = stillOpen(open, cards);
  const stored = shown.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stored` is `shown` as a value.
  useEffect(() => writeOpenCards(shown), [stored]);
  return { open: shown, dispatch };
}
