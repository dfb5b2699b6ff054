import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Answers no sooner than `floorMs`: "no such account" (one lookup) and "mail queued" (a small
 * transaction) then take the same time from outside (docs/security.md 10). Errors still propagate.
 */
export async function atLeast<T>(work: () => Promise<T>, floorMs = 100): Promise<T> {
  const [result] = await Promise.all([work(), sleep(floorMs)]);
  return result;
}
