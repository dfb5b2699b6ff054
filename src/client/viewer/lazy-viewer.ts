import { lazy } from 'react';

// The 3D viewer (three.js, the glTF loader, the meshopt decoder: ~170 kB gzipped) is a chunk of its own,
// loaded when first opened. The upload tool fetches it while the browser is idle during an upload (or
// once a model card shows), so that the first 'View 3D' right after the answer does not wait for it (~130 ms
// on the bench machine).

const load = () => import('./ViewerModal.tsx');

export const LazyViewerModal = lazy(load);

let prefetched = false;

/** Loads the viewer's chunk when the browser is next idle; once per page. */
export function prefetchViewer(): void {
  if (prefetched) return;
  prefetched = true;
  const start = () => void load().catch(() => (prefetched = false)); // tried again on the next call
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}
