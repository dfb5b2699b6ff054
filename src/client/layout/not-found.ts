// The catch-all route sends an unknown path to the home page with the path in the location's state, so the
// home page can say what was not found instead of leaving a mistyped link a silent mystery.

/** Longest path shown in full; a longer one keeps its start and end around an ellipsis. */
export const SHOWN_PATH_MAX = 60;

export type NotFoundState = { notFound: string };

/** The unknown path carried by a redirect's location state, or null for any other state. */
export function notFoundPath(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notFound' in state)) return null;
  const { notFound } = state;
  return typeof notFound === 'string' && notFound !== '' ? notFound : null;
}

/** The path as a reader typed it (percent-escapes decoded where they decode), cut to `max` characters. */
export function shownPath(path: string, max = SHOWN_PATH_MAX): string {
  let text = path;
  try {
    text = decodeURI(path);
  } catch {
    // A malformed escape: show the path as it came.
  }
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.7);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
