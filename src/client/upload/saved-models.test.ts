// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHOICES, MAX_NOTES } from './choices.ts';
import {
  forgetModel,
  MAX_SAVED_MODELS,
  parseSavedModels,
  readSavedModels,
  SAVED_MODELS_KEY,
  type SavedModel,
  saveModel,
  serializeSavedModels,
} from './saved-models.ts';

const cube: SavedModel = {
  key: 'card-1',
  id: 'm_cube',
  choices: { color: '#dc3545', strength: 5, quantityText: '2', notes: 'Flat side down.' },
};
const block: SavedModel = { key: 'card-2', id: 'm_block', choices: DEFAULT_CHOICES };

const stored = (models: unknown, version: unknown = 1) => JSON.stringify({ version, models });

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('parseSavedModels', () => {
  it('reads back what was written, in order', () => {
    expect(parseSavedModels(serializeSavedModels([cube, block]))).toEqual([cube, block]);
  });

  it('reads nothing from a missing, unparsable or foreign value', () => {
    for (const text of [null, undefined, '', '{', 'null', '42', '"x"', '[]', '{}', stored('nope')]) {
      expect(parseSavedModels(text)).toEqual([]);
    }
    expect(parseSavedModels(stored([cube], 2))).toEqual([]);
  });

  it('leaves out the cards that do not read, keeps the others', () => {
    const text = stored([
      null,
      'm_x',
      { key: 'k', id: '' },
      { key: '', id: 'm_x' },
      { key: 'k', id: 42 },
      { key: 'k'.repeat(65), id: 'm_x' },
      cube,
      { ...block, key: cube.key },
      block,
    ]);
    expect(parseSavedModels(text)).toEqual([cube, block]);
  });

  it('puts a default in place of a pick that does not read', () => {
    const text = stored([
      {
        key: 'a',
        id: 'm_a',
        choices: { color: 'pink', strength: 7, quantityText: 3, notes: 'n'.repeat(MAX_NOTES + 1) },
      },
      { key: 'b', id: 'm_b', choices: 'red' },
      { key: 'c', id: 'm_c' },
      { key: 'd', id: 'm_d', choices: { ...cube.choices, strength: 1, extra: true } },
    ]);
    expect(parseSavedModels(text)).toEqual([
      { key: 'a', id: 'm_a', choices: DEFAULT_CHOICES },
      { key: 'b', id: 'm_b', choices: DEFAULT_CHOICES },
      { key: 'c', id: 'm_c', choices: DEFAULT_CHOICES },
      { key: 'd', id: 'm_d', choices: { ...cube.choices, strength: 1 } },
    ]);
  });

  it(`keeps the newest ${MAX_SAVED_MODELS}`, () => {
    const many = Array.from({ length: MAX_SAVED_MODELS + 5 }, (_, i) => ({ ...block, key: `k${i}` }));
    const read = parseSavedModels(stored(many));
    expect(read).toHaveLength(MAX_SAVED_MODELS);
    expect(read[0]!.key).toBe('k5');
  });
});

describe('local storage', () => {
  it('saves a card, changes it in place, forgets it, and leaves no empty list behind', () => {
    saveModel(cube);
    saveModel(block);
    expect(readSavedModels()).toEqual([cube, block]);
    const blue = { ...cube, choices: { ...cube.choices, color: '#007bff' as const } };
    saveModel(blue);
    expect(readSavedModels()).toEqual([blue, block]);
    forgetModel(cube.key);
    expect(JSON.parse(localStorage.getItem(SAVED_MODELS_KEY)!)).toEqual({ version: 1, models: [block] });
    forgetModel(block.key);
    expect(localStorage.getItem(SAVED_MODELS_KEY)).toBeNull();
  });

  it("changes one card without undoing another tab's", () => {
    saveModel(cube);
    // Another tab adds a card meanwhile.
    localStorage.setItem(SAVED_MODELS_KEY, serializeSavedModels([cube, block]));
    saveModel({ ...cube, choices: DEFAULT_CHOICES });
    expect(readSavedModels().map((m) => m.key)).toEqual([cube.key, block.key]);
  });

  it('replaces a malformed value on the next save', () => {
    localStorage.setItem(SAVED_MODELS_KEY, '{oops');
    expect(readSavedModels()).toEqual([]);
    saveModel(cube);
    expect(readSavedModels()).toEqual([cube]);
  });

  it('never throws when storage refuses', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(readSavedModels()).toEqual([]);
    expect(() => saveModel(cube)).not.toThrow();
    expect(warn).toHaveBeenCalledOnce();
  });
});
