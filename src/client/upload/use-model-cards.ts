import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { ModelPayload } from '../../shared/models.ts';
import { useSession } from '../session/SessionProvider.tsx';
import type { Choices } from './choices.ts';
import { fetchModel, fetchMyModels, removeModel } from './model-api.ts';
import { type Card, cardsReducer, restoreCards, toSavedModel } from './model-cards.ts';
import { forgetModel, readSavedModels, saveModel } from './saved-models.ts';

// The upload tool's model cards: restored from local storage on load (each model asked for again), and
// every change mirrored back, card by card.

/**
 * Models seen while this page lives, by who saw them (after a logout, someone else's cards must not
 * flash by): coming back to the home page shows their cards at once.
 */
const seen = new Map<string, ModelPayload>();
const seenKey = (user: string | null, id: string) => `${user ?? ''}\n${id}`;

const newCardKey = () =>
  globalThis.crypto?.randomUUID?.() ?? `card-${Date.now()}-${Math.random().toString(36).slice(2)}`;

export type ModelCards = {
  cards: Card[];
  /** A model uploaded on this page, as a new card; returns the card's key. */
  add(model: ModelPayload): string;
  choose(key: string, choices: Partial<Choices>): void;
  rescaled(key: string, model: ModelPayload): void;
  remove(key: string): void;
  /** Asks again for the remembered models that did not answer. */
  retry(): void;
};

export function useModelCards(): ModelCards {
  const { username } = useSession();
  const user = username ?? null;
  const [cards, dispatch] = useReducer(cardsReducer, undefined, () =>
    restoreCards(readSavedModels(), (id) => seen.get(seenKey(user, id))),
  );
  const restored = useRef(cards);
  // Read by the answers that come later; the requests themselves do not change with it.
  const viewer = useRef(user);
  useEffect(() => {
    const before = viewer.current;
    viewer.current = user;
    // Logged out (or someone else logged in) with the page open: the cards were the last person's.
    if (before !== null && before !== user) dispatch({ type: 'clear' });
  }, [user]);
  const requests = useRef<AbortController | null>(null);

  const ask = useCallback((targets: Card[]) => {
    const signal = requests.current?.signal;
    if (!signal) return;
    for (const { key, id } of targets) {
      fetchModel(id, signal).then((outcome) => {
        if (signal.aborted) return;
        if (outcome.ok) {
          seen.set(seenKey(viewer.current, id), outcome.value);
          dispatch({ type: 'fetched', key, model: outcome.value });
        } else if (outcome.status === 404) {
          // Cleaned up by the server, or not ours (someone else's after a logout): forget it quietly.
          seen.delete(seenKey(viewer.current, id));
          dispatch({ type: 'gone', key, id });
        } else {
          dispatch({ type: 'unreachable', key, id });
        }
      });
    }
  }, []);

  // Ask for every remembered model once; leaving the page drops the answers still on their way.
  useEffect(() => {
    const controller = new AbortController();
    requests.current = controller;
    ask(restored.current.filter((c) => c.status === 'loading'));
    return () => controller.abort();
  }, [ask]);

  const retry = useCallback(() => {
    dispatch({ type: 'retry' });
    ask(cards.filter((c) => c.status === 'unreachable'));
  }, [ask, cards]);

  // Logged in: the account's models from other devices join the cards (once per login, per page).
  useEffect(() => {
    if (!user) return;
    const controller = new AbortController();
    fetchMyModels(controller.signal).then((outcome) => {
      if (controller.signal.aborted || !outcome.ok) return;
      for (const model of outcome.value) seen.set(seenKey(user, model.id), model);
      dispatch({ type: 'listed', models: outcome.value.map((model) => ({ key: newCardKey(), model })) });
    });
    return () => controller.abort();
  }, [user]);

  // Back online: ask again by itself.
  const waiting = cards.some((c) => c.status === 'unreachable');
  useEffect(() => {
    if (!waiting) return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [waiting, retry]);

  // Mirror each card that changed (or went) to storage; the first render is what storage already holds.
  const stored = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    const before = stored.current;
    const now = new Map(cards.map((c) => [c.key, JSON.stringify(toSavedModel(c))]));
    stored.current = now;
    if (!before) return;
    for (const card of cards) {
      if (before.get(card.key) !== now.get(card.key)) saveModel(toSavedModel(card));
    }
    for (const key of before.keys()) {
      if (!now.has(key)) forgetModel(key);
    }
  }, [cards]);

  const add = useCallback((model: ModelPayload) => {
    seen.set(seenKey(viewer.current, model.id), model);
    const key = newCardKey();
    dispatch({ type: 'uploaded', key, model });
    return key;
  }, []);
  const choose = useCallback(
    (key: string, choices: Partial<Choices>) => dispatch({ type: 'choose', key, choices }),
    [],
  );
  const rescaled = useCallback((key: string, model: ModelPayload) => {
    seen.set(seenKey(viewer.current, model.id), model);
    dispatch({ type: 'rescaled', key, model });
  }, []);
  const remove = useCallback(
    (key: string) => {
      const card = cards.find((c) => c.key === key);
      dispatch({ type: 'remove', key });
      // Off the account's list too (other devices), unless another card here still shows that model.
      if (card && !cards.some((c) => c.key !== key && c.id === card.id)) void removeModel(card.id);
    },
    [cards],
  );

  return { cards, add, choose, rescaled, remove, retry };
}
