// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelPayload } from '../../shared/models.ts';
import { DEFAULT_CHOICES } from './choices.ts';
import type { Card } from './model-cards.ts';
import {
  newestFirst,
  OPEN_CARDS_KEY,
  openReducer,
  readOpenCards,
  startsUpload,
  stillOpen,
  writeOpenCards,
} from './saved-list.ts';

const card = (key: string, model = true): Card => ({
  key,
  id: `m_${key}`,
  choices: DEFAULT_CHOICES,
  status: model ? 'ready' : 'loading',
  model: model ? ({ id: `m_${key}`, fileName: `${key}.stl` } as ModelPayload) : null,
});

afterEach(() => sessionStorage.clear());

describe('newestFirst', () => {
  it('lists the cards newest first, leaving out those still waiting for their model', () => {
    const rows = newestFirst([card('old'), card('waiting', false), card('mid'), card('new')]);
    expect(rows.map((c) => c.key)).toEqual(['new', 'mid', 'old']);
  });

  it('does not change the cards it is given', () => {
    const cards = [card('a'), card('b')];
    newestFirst(cards);
    expect(cards.map((c) => c.key)).toEqual(['a', 'b']);
  });
});

describe('openReducer', () => {
  it('opens and closes a row, each on its own', () => {
    let open = openReducer([], { type: 'toggle', key: 'a' });
    open = openReducer(open, { type: 'toggle', key: 'b' });
    expect(open).toEqual(['a', 'b']);
    expect(openReducer(open, { type: 'toggle', key: 'a' })).toEqual(['b']);
  });

  it("opens this visit's uploads, and closes every row when another upload starts", () => {
    let open = openReducer([], { type: 'uploaded', key: 'a' });
    open = openReducer(open, { type: 'toggle', key: 'old' });
    expect(open).toEqual(['a', 'old']);
    open = openReducer(open, { type: 'uploading' });
    expect(open).toEqual([]);
    open = openReducer(open, { type: 'uploaded', key: 'b' });
    open = openReducer(open, { type: 'uploaded', key: 'c' });
    expect(openReducer(open, { type: 'uploaded', key: 'b' })).toEqual(['b', 'c']);
  });

  it('keeps the same list when nothing changes', () => {
    const none: string[] = [];
    expect(openReducer(none, { type: 'uploading' })).toBe(none);
  });
});

describe('stillOpen', () => {
  it('leaves out the keys of cards that are gone (removed, or logged out)', () => {
    const open = ['a', 'gone', 'b'];
    expect(stillOpen(open, [card('a'), card('b')])).toEqual(['a', 'b']);
    expect(stillOpen(open, [])).toEqual([]);
  });

  it('gives the same list back while every key has its card', () => {
    const open = ['a'];
    expect(stillOpen(open, [card('a'), card('b')])).toBe(open);
  });
});

describe('startsUpload', () => {
  it('is true when at least one file passes the checks in the browser', () => {
    expect(startsUpload([new File(['x'], 'notes.txt')])).toBe(false);
    expect(startsUpload([new File(['x'], 'notes.txt'), new File(['x'], 'part.stl')])).toBe(true);
  });
});

describe('the open rows in session storage', () => {
  it('are written and read back, and an empty list leaves nothing behind', () => {
    writeOpenCards(['a', 'b']);
    expect(readOpenCards()).toEqual(['a', 'b']);
    writeOpenCards([]);
    expect(sessionStorage.getItem(OPEN_CARDS_KEY)).toBeNull();
    expect(readOpenCards()).toEqual([]);
  });

  it('read as none open from anything unreadable', () => {
    for (const bad of ['{', '"a"', '{"a":1}', 'null']) {
      sessionStorage.setItem(OPEN_CARDS_KEY, bad);
      expect(readOpenCards()).toEqual([]);
    }
    sessionStorage.setItem(OPEN_CARDS_KEY, '["a", 2, null, "b"]');
    expect(readOpenCards()).toEqual(['a', 'b']);
  });
});
