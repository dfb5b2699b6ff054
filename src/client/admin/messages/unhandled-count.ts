import { useSyncExternalStore } from 'react';
import type { AdminMessageList } from '../../../shared/admin-messages.ts';
import { load } from '../admin-api.ts';

// The number of unhandled messages the panel's menu shows: asked for when the panel opens and on each page
// change, and set by the Messages page from every answer it gets, so marking one handled updates the menu.

let count: number | null = null;
const listeners = new Set<() => void>();

export function setUnhandledCount(next: number): void {
  if (next === count) return;
  count = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The count as last known (null until the first answer). */
export function useUnhandledCount(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => count,
    () => null,
  );
}

/** Asks the server for the count; a failure leaves the last one shown. */
export async function refreshUnhandledCount(signal?: AbortSignal): Promise<void> {
  const result = await load<AdminMessageList>('/api/admin/messages?handled=0&pageSize=1', signal);
  if (result.ok && !signal?.aborted) setUnhandledCount(result.data.unhandled);
}
