import { useSyncExternalStore } from 'react';

// Whether the main pointer is a finger (phones, tablets): texts then name touch gestures, not a mouse's.

const QUERY = '(pointer: coarse)';

function subscribe(onChange: () => void): () => void {
  const list = globalThis.matchMedia?.(QUERY);
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

const current = () => globalThis.matchMedia?.(QUERY).matches ?? false;

export function useCoarsePointer(): boolean {
  return useSyncExternalStore(subscribe, current, () => false);
}
