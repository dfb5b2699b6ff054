import { checkModelFile } from './file-checks.ts';
import type { Card } from './model-cards.ts';

// The saved models as a compact list: one row per model, newest first, and which rows are open as full
// cards. A model uploaded on this visit opens by itself and stays open until the customer closes it or
// uploads another; any row opens in place to edit. The open rows are kept for the tab (session storage),
// so a reload or a visit to another page comes back to the same list.

/** The rows to show, newest first (the cards are kept in the order they came, oldest first). */
export function newestFirst(cards: Card[]): Card[] {
  return cards.filter((c) => c.model).reverse();
}

export type OpenAction =
  /** The customer opens or closes a row. */
  | { type: 'toggle'; key: string }
  /** New files are on their way: the last upload's cards (and any row opened) close. */
  | { type: 'uploading' }
  /** A model uploaded on this visit: its card opens. */
  | { type: 'uploaded'; key: string };

/** The keys of the open rows, in the order they opened. */
export function openReducer(open: string[], action: OpenAction): string[] {
  switch (action.type) {
    case 'toggle':
      return open.includes(action.key) ? open.filter((k) => k !== action.key) : [...open, action.key];
    case 'uploading':
      return open.length ? [] : open;
    case 'uploaded':
      return open.includes(action.key) ? open : [...open, action.key];
  }
}

/** The open keys that still name a card (a removed card, or the last person's after a logout, is left out). */
export function stillOpen(open: string[], cards: Card[]): string[] {
  const keys = new Set(cards.map((c) => c.key));
  return open.every((k) => keys.has(k)) ? open : open.filter((k) => keys.has(k));
}

/** Whether files just chosen start an upload: a file refused at once (.txt) leaves the cards as they are. */
export const startsUpload = (files: File[]) => files.some((f) => !checkModelFile(f));

export const OPEN_CARDS_KEY = 'printUploadsOpen';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The open rows of this tab; anything unreadable reads as none open. */
export function readOpenCards(): string[] {
  try {
    const data: unknown = JSON.parse(storage()?.getItem(OPEN_CARDS_KEY) ?? '[]');
    return Array.isArray(data) ? data.filter((k): k is string => typeof k === 'string').slice(0, 100) : [];
  } catch {
    return [];
  }
}

export function writeOpenCards(open: string[]): void {
  try {
    if (open.length) storage()?.setItem(OPEN_CARDS_KEY, JSON.stringify(open));
    else storage()?.removeItem(OPEN_CARDS_KEY);
  } catch {
    // Forbidden storage: the rows still open and close, a reload just shows them all closed.
  }
}
