// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { box, triangles } from '../../mesh/testing/generate.ts';
import { buildViewMesh } from '../../server/models/view-mesh.ts';
import { formatDimensions } from '../../shared/format.ts';
import ViewerModal from './ViewerModal.tsx';

// The viewer draws a rescaled model at its own size (its view mesh is its original's), and says in its
// DOM what size it drew, in the model's axes (x, y across the plate, z up).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

vi.mock('./scene.ts', () => ({
  WebGLUnavailableError: class extends Error {},
  createViewer: () => ({ grid: { cell: 10 }, fitToView() {}, setColor() {}, dispose() {} }),
}));

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
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

/** Opens the viewer on a box of x, y, z mm at `scale`; the drawn size it reports once ready. */
async function drawnSize(x: number, y: number, z: number, scale?: number): Promise<string | null> {
  const { glb } = await buildViewMesh(Float32Array.from(triangles(box(x, y, z))));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.endsWith('/view-coarse.glb') ? new Response(null, { status: 204 }) : new Response(glb.slice()),
    ),
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ({
    getExtension: () => null,
  })) as never);
  await act(async () => {
    root.render(
      <ViewerModal
        url="/api/models/m1/view.glb"
        fileName="part.stl"
        color="#dc3545"
        scale={scale}
        onClose={() => {}}
      />,
    );
  });
  const frame = () => document.querySelector('.viewer-frame');
  const end = Date.now() + 5000;
  while (!frame()?.getAttribute('data-drawn-size')) {
    if (Date.now() > end) throw new Error(`Timed out:\n${document.body.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
  return frame()!.getAttribute('data-drawn-size');
}

describe('ViewerModal: the size drawn', () => {
  it('draws a model at its scale: a 2 mm cube from inches is 50.8 mm', async () => {
    expect(await drawnSize(2, 2, 2, 25.4)).toBe(formatDimensions({ x: 50.8, y: 50.8, z: 50.8 }));
  });

  it('reports the size in the model’s own axes, unscaled by default', async () => {
    expect(await drawnSize(40, 20, 10)).toBe(formatDimensions({ x: 40, y: 20, z: 10 }));
  });
});
