// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { BufferGeometry } from 'three';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { box, triangles } from '../../mesh/testing/generate.ts';
import { buildViewMesh } from '../../server/models/view-mesh.ts';
import ViewerModal from './ViewerModal.tsx';

// The dialog with the server's view mesh: it downloads the GLB, hands the decoded model to the 3D scene
// (stood in for here: jsdom has no WebGL) and says when the model was simplified for display.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const shown: BufferGeometry[] = [];
vi.mock('./scene.ts', () => ({
  WebGLUnavailableError: class extends Error {},
  createViewer: (_stage: HTMLElement, geometry: BufferGeometry) => {
    shown.push(geometry);
    return {
      grid: { cell: 10 },
      fitToView() {},
      setColor() {},
      setGeometry: (next: BufferGeometry) => shown.push(next),
      dispose() {},
    };
  },
}));

let container: HTMLDivElement;
let root: Root;

async function openWith(simplified: boolean) {
  const { glb } = await buildViewMesh(Float32Array.from(triangles(box(40, 20, 10))));
  const fetch = vi.fn(async (url: string) =>
    // No coarse view: the model's view mesh is stored.
    url.endsWith('/view-coarse.glb')
      ? new Response(null, { status: 204 })
      : new Response(glb.slice(), { headers: { 'x-view-simplified': simplified ? '1' : '0' } }),
  );
  vi.stubGlobal('fetch', fetch);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ({
    getExtension: () => null,
  })) as never);
  await act(async () => {
    root.render(
      <ViewerModal url="/api/models/m1/view.glb" fileName="part.stl" color="#007bff" onClose={() => {}} />,
    );
  });
  const end = Date.now() + 5000;
  const fitButton = () => document.querySelector<HTMLButtonElement>('.viewer-foot button');
  // Ready: the model is in the scene and 'Fit to view' is enabled.
  while (shown.length === 0 || fitButton()?.disabled !== false) {
    if (Date.now() > end) throw new Error(`Timed out:\n${document.body.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
  return fetch;
}

beforeEach(() => {
  shown.length = 0;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('ViewerModal with a view mesh', () => {
  it('shows the model the server made, standing on the grid, and says nothing of simplifying', async () => {
    const fetch = await openWith(false);
    expect(fetch).toHaveBeenCalledWith('/api/models/m1/view.glb', expect.anything());
    expect(document.querySelector('.viewer-frame')?.getAttribute('data-view')).toBe('full');
    expect(shown).toHaveLength(1);
    const { min, max } = shown[0]!.boundingBox!;
    expect([min.y, max.y]).toEqual([0, 10]);
    expect(max.x - min.x).toBeCloseTo(40);
    expect(document.body.textContent).toContain('Grid squares are 10 mm.');
    expect(document.body.textContent).not.toContain('Simplified for display');
  });

  it('says when the model was simplified for display', async () => {
    await openWith(true);
    expect(document.body.textContent).toContain(
      'Simplified for display: the print uses every detail of your file.',
    );
  });

  it('draws a coarse view first when the server has one, then the full view in its place', async () => {
    const coarse = await buildViewMesh(Float32Array.from(triangles(box(40, 20, 10))));
    const full = await buildViewMesh(Float32Array.from(triangles(box(40, 20, 10))));
    let release = () => {};
    let releaseCoarse = () => {};
    const fullArrives = new Promise<void>((resolve) => (release = resolve));
    const coarseArrives = new Promise<void>((resolve) => (releaseCoarse = resolve));
    const fetch = vi.fn(async (url: string) => {
      if (url.endsWith('/view-coarse.glb')) {
        await coarseArrives;
        return new Response(coarse.glb.slice());
      }
      await fullArrives;
      return new Response(full.glb.slice(), { headers: { 'x-view-simplified': '1' } });
    });
    vi.stubGlobal('fetch', fetch);
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ({
      getExtension: () => null,
    })) as never);
    await act(async () => {
      root.render(
        <ViewerModal url="/api/models/m1/view.glb" fileName="part.stl" color="#007bff" onClose={() => {}} />,
      );
    });
    const frame = () => document.querySelector('.viewer-frame')!;
    // The model's picture stands in at first.
    expect(document.querySelector<HTMLImageElement>('.viewer-placeholder')?.getAttribute('src')).toBe(
      '/api/models/m1/preview.png',
    );
    const until = async (check: () => boolean) => {
      const end = Date.now() + 5000;
      while (!check()) {
        if (Date.now() > end) throw new Error(`Timed out:\n${document.body.textContent}`);
        await act(() => new Promise((r) => setTimeout(r, 20)));
      }
    };
    releaseCoarse();
    await until(() => frame().getAttribute('data-view') === 'coarse');
    expect(fetch).toHaveBeenCalledWith('/api/models/m1/view-coarse.glb', expect.anything());
    expect(shown).toHaveLength(1);
    expect(document.querySelector('.viewer-placeholder')).toBeNull();
    expect(document.querySelector('[role=status]')?.textContent).toContain('Loading full detail…');
    // Drawn: the view can be turned and fitted already, but its size is told only from the full view.
    expect(document.querySelector<HTMLButtonElement>('.viewer-foot button')?.disabled).toBe(false);
    expect(frame().getAttribute('data-drawn-size')).toBeNull();
    expect(document.body.textContent).not.toContain('Simplified for display');
    release();
    await until(() => frame().getAttribute('data-view') === 'full');
    expect(shown).toHaveLength(2);
    expect(document.querySelector('[role=status]')).toBeNull();
    expect(frame().getAttribute('data-drawn-size')).toBeTruthy();
    expect(document.body.textContent).toContain('Simplified for display');
  });
});
