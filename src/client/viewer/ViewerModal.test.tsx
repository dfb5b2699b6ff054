// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ViewerModal from './ViewerModal.tsx';

// The dialog around the 3D view (jsdom has no WebGL: the view itself is covered by the browser journey).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
let opener: HTMLButtonElement;
const onClose = vi.fn();

function webgl(available: boolean) {
  const context = available ? { getExtension: () => null } : null;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => context) as never);
}

async function open() {
  await act(async () => {
    root.render(
      <ViewerModal url="/api/models/m1/file" fileName="cube.stl" color="#dc3545" onClose={onClose} />,
    );
  });
}

async function until(check: () => boolean) {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out:\n${document.body.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

beforeEach(() => {
  onClose.mockReset();
  opener = document.createElement('button');
  opener.textContent = 'View 3D';
  document.body.append(opener);
  opener.focus();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  opener.remove();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('ViewerModal', () => {
  it('is a labelled modal dialog that takes focus, closes on Escape and gives focus back', async () => {
    webgl(false);
    await open();
    const dialog = document.querySelector('[role=dialog]')!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe(
      '3D view cube.stl',
    );
    expect(document.activeElement?.textContent).toBe('Close');

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(onClose).toHaveBeenCalledTimes(1);

    act(() => root.unmount());
    expect(document.activeElement).toBe(opener);
    root = createRoot(container);
  });

  it('says so when WebGL is unavailable, without downloading the model', async () => {
    webgl(false);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await open();
    expect(document.querySelector('[role=alert]')?.textContent).toBe(
      'Your browser cannot show 3D views here (WebGL is unavailable or turned off).',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says so when the model cannot be loaded', async () => {
    webgl(true);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'Model not found.' }, { status: 404 })),
    );
    await open();
    await until(() => document.querySelector('[role=alert]') !== null);
    expect(document.querySelector('[role=alert]')?.textContent).toBe(
      'We could not load this model for viewing.',
    );
    const fit = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Fit to view')!;
    expect(fit.disabled).toBe(true);
  });

  it('closes with the Close button', async () => {
    webgl(false);
    await open();
    const close = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Close')!;
    await act(async () => close.click());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
