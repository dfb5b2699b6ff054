// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

const loaded = vi.fn();
vi.mock('./ViewerModal.tsx', () => {
  loaded();
  return { default: () => null };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  loaded.mockClear();
});

describe('prefetchViewer', () => {
  it("loads the viewer's chunk once, when the browser is idle", async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    const { prefetchViewer } = await import('./lazy-viewer.ts');
    prefetchViewer();
    prefetchViewer();
    expect(idle).toHaveLength(1);
    expect(loaded).not.toHaveBeenCalled();
    idle[0]!();
    await vi.waitFor(() => expect(loaded).toHaveBeenCalledTimes(1));
  });

  it('falls back to a timer where requestIdleCallback is missing (Safari)', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const timer = vi.spyOn(globalThis, 'setTimeout');
    const { prefetchViewer } = await import('./lazy-viewer.ts');
    prefetchViewer();
    prefetchViewer();
    expect(timer.mock.calls.filter(([, ms]) => ms === 200)).toHaveLength(1);
    timer.mockRestore();
  });
});
