import { describe, expect, it } from 'vitest';
import type { ModelPayload } from '../../shared/models.ts';
import { DEFAULT_CHOICES } from './choices.ts';
import { type Card, cardsReducer, restoreCards, toSavedModel } from './model-cards.ts';
import type { SavedModel } from './saved-models.ts';

const model = (id: string) => ({ id, fileName: `${id}.stl` }) as ModelPayload;
const red = { ...DEFAULT_CHOICES, color: '#dc3545' as const, strength: 5 as const };
const saved: SavedModel[] = [
  { key: 'a', id: 'm_a', choices: red },
  { key: 'b', id: 'm_b', choices: DEFAULT_CHOICES },
  { key: 'c', id: 'm_c', choices: DEFAULT_CHOICES },
];

const summary = (cards: Card[]) => cards.map((c) => `${c.key}:${c.status}:${c.model?.id ?? '-'}`);

describe('restoreCards', () => {
  it('keeps the stored order and picks, each card waiting for its model', () => {
    const cards = restoreCards(saved);
    expect(summary(cards)).toEqual(['a:loading:-', 'b:loading:-', 'c:loading:-']);
    expect(cards.map(toSavedModel)).toEqual(saved);
  });

  it('shows a model already seen on this page at once', () => {
    const cards = restoreCards(saved, (id) => (id === 'm_b' ? model('m_b') : undefined));
    expect(summary(cards)).toEqual(['a:loading:-', 'b:loading:m_b', 'c:loading:-']);
  });
});

describe('cardsReducer', () => {
  it('keeps the stored order whatever order the answers come in, and drops a 404', () => {
    let cards = restoreCards(saved);
    cards = cardsReducer(cards, { type: 'fetched', key: 'c', model: model('m_c') });
    cards = cardsReducer(cards, { type: 'gone', key: 'b', id: 'm_b' });
    cards = cardsReducer(cards, { type: 'fetched', key: 'a', model: model('m_a') });
    expect(summary(cards)).toEqual(['a:ready:m_a', 'c:ready:m_c']);
    expect(cards[0]!.choices).toEqual(red);
  });

  it('keeps a card without an answer, to ask again', () => {
    let cards = restoreCards(saved, (id) => (id === 'm_a' ? model('m_a') : undefined));
    cards = cardsReducer(cards, { type: 'unreachable', key: 'a', id: 'm_a' });
    cards = cardsReducer(cards, { type: 'unreachable', key: 'b', id: 'm_b' });
    expect(summary(cards)).toEqual(['a:ready:m_a', 'b:unreachable:-', 'c:loading:-']);
    cards = cardsReducer(cards, { type: 'retry' });
    expect(summary(cards)).toEqual(['a:ready:m_a', 'b:loading:-', 'c:loading:-']);
    cards = cardsReducer(cards, { type: 'fetched', key: 'b', model: model('m_b') });
    expect(summary(cards).slice(0, 2)).toEqual(['a:ready:m_a', 'b:ready:m_b']);
  });

  it('ignores a late answer about the model a rescale replaced', () => {
    let cards = restoreCards(saved, (id) => (id === 'm_a' ? model('m_a') : undefined));
    cards = cardsReducer(cards, { type: 'rescaled', key: 'a', model: model('m_a2') });
    cards = cardsReducer(cards, { type: 'fetched', key: 'a', model: model('m_a') });
    cards = cardsReducer(cards, { type: 'gone', key: 'a', id: 'm_a' });
    expect(summary(cards)[0]).toBe('a:ready:m_a2');
    expect(toSavedModel(cards[0]!)).toEqual({ key: 'a', id: 'm_a2', choices: red });
  });

  it("puts the account's models from another device in the order the server lists them (newest first)", () => {
    const listed = (...ids: string[]) => ({
      type: 'listed' as const,
      models: ids.map((id) => ({ key: `new-${id}`, model: model(id) })),
    });
    // Here: x (oldest) and z; the server: z, y, x, w, newest first (y and w from another device).
    let cards = cardsReducer([], { type: 'uploaded', key: 'x', model: model('m_x') });
    cards = cardsReducer(cards, { type: 'uploaded', key: 'z', model: model('m_z') });
    cards = cardsReducer(cards, listed('m_z', 'm_y', 'm_x', 'm_w'));
    expect(cards.map((c) => c.id)).toEqual(['m_w', 'm_x', 'm_y', 'm_z']);
    expect(cards.find((c) => c.id === 'm_y')).toMatchObject({ key: 'new-m_y', status: 'ready' });
    // A card the server does not list (just uploaded) keeps its place; a second listing adds nothing.
    cards = cardsReducer(cards, { type: 'uploaded', key: 'v', model: model('m_v') });
    const again = cardsReducer(cards, listed('m_z', 'm_y', 'm_x', 'm_w'));
    expect(again).toBe(cards);
    expect(cardsReducer(cards, listed('m_u', 'm_z')).map((c) => c.id)).toEqual([
      'm_w',
      'm_x',
      'm_y',
      'm_z',
      'm_u',
      'm_v',
    ]);
  });

  it('adds uploads at the end with the default picks, changes picks, removes', () => {
    let cards = cardsReducer([], { type: 'uploaded', key: 'x', model: model('m_x') });
    cards = cardsReducer(cards, { type: 'uploaded', key: 'y', model: model('m_x') });
    expect(summary(cards)).toEqual(['x:ready:m_x', 'y:ready:m_x']);
    expect(cards[0]!.choices).toEqual(DEFAULT_CHOICES);
    cards = cardsReducer(cards, { type: 'choose', key: 'y', choices: { notes: 'Glossy.' } });
    expect(cards[1]!.choices).toEqual({ ...DEFAULT_CHOICES, notes: 'Glossy.' });
    expect(cards[0]!.choices).toEqual(DEFAULT_CHOICES);
    cards = cardsReducer(cards, { type: 'remove', key: 'x' });
    expect(summary(cards)).toEqual(['y:ready:m_x']);
  });
});
