import {
  type BufferGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { colorSwatch } from '../../shared/catalog.ts';
import { type GridLayout, gridLayout } from './grid.ts';

// The three.js view of one model: renders on demand (after a camera move or a resize), so an idle
// viewer costs nothing; `dispose` gives back every GPU resource.

export class WebGLUnavailableError extends Error {
  constructor(cause: unknown) {
    super('WebGL is unavailable', { cause });
    this.name = 'WebGLUnavailableError';
  }
}

export type Viewer = {
  grid: GridLayout;
  fitToView(): void;
  /** Draws `next` instead (the full view after a coarse one), keeping the camera; the old one is disposed. */
  setGeometry(next: BufferGeometry): void;
  setColor(color: string): void;
  dispose(): void;
};

/** A view direction from the front, right and above, as people look at a part on a table. */
const VIEW_DIRECTION = new Vector3(0.9, 0.75, 1.25).normalize();

/** `label` names the canvas for assistive technology; the canvas takes focus and arrow keys. */
export function createViewer(
  container: HTMLElement,
  first: BufferGeometry,
  color: string,
  label: string,
): Viewer {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ antialias: true, alpha: true });
  } catch (err) {
    throw new WebGLUnavailableError(err);
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const canvas = renderer.domElement;
  canvas.className = 'viewer-canvas';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${label}. Drag or use the arrow keys to move the view.`);
  container.appendChild(canvas);

  let geometry = first;
  const scene = new Scene();
  const box = geometry.boundingBox!;
  let sphere = geometry.boundingSphere!;
  // A floor only against a degenerate box: a micron model keeps its own scale (docs/domain.md).
  const radius = Math.max(sphere.radius, 1e-4);

  const camera = new PerspectiveCamera(35, 1, radius / 100, radius * 200);
  scene.add(camera);
  // Light from the viewer's upper left, moving with the camera: the top reads lightest, then the front.
  scene.add(new HemisphereLight(0xffffff, 0x444c56, 0.8));
  const key = new DirectionalLight(0xffffff, 2);
  key.position.set(-1, 2, 2);
  key.target.position.set(0, 0, -1);
  camera.add(key, key.target);

  const material = new MeshStandardMaterial({
    color: new Color(colorSwatch(color)),
    roughness: 0.55,
    metalness: 0.05,
    flatShading: true,
  });
  const mesh = new Mesh(geometry, material);
  scene.add(mesh);

  const grid = gridLayout(Math.max(box.max.x - box.min.x, box.max.z - box.min.z));
  const gridHelper = new GridHelper(grid.size, grid.divisions, 0x5b6878, 0xb8c1cc);
  gridHelper.position.y = -radius / 2000;
  scene.add(gridHelper);

  const controls = new OrbitControls(camera, renderer.domElement);
  controls.minDistance = radius * 0.3;
  controls.maxDistance = radius * 30;
  controls.listenToKeyEvents(canvas);

  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);

  const fitToView = () => {
    const center = sphere.center;
    const vFov = (camera.fov * Math.PI) / 180;
    const hFov = 2 * Math.atan(Math.tan(vFov / 2) * camera.aspect);
    const distance = (radius / Math.sin(Math.min(vFov, hFov) / 2)) * 1.2;
    camera.position.copy(center).addScaledVector(VIEW_DIRECTION, distance);
    controls.target.copy(center);
    camera.updateProjectionMatrix();
    controls.update();
    render();
  };

  const resize = () => {
    const width = Math.max(container.clientWidth, 1);
    const height = Math.max(container.clientHeight, 1);
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  resize();
  fitToView();

  return {
    grid,
    fitToView,
    setGeometry(next: BufferGeometry) {
      const old = mesh.geometry;
      mesh.geometry = next;
      geometry = next;
      sphere = next.boundingSphere!;
      old.dispose();
      render();
    },
    setColor(next: string) {
      material.color.set(colorSwatch(next));
      render();
    },
    dispose() {
      observer.disconnect();
      controls.removeEventListener('change', render);
      controls.stopListenToKeyEvents();
      controls.dispose();
      geometry.dispose();
      material.dispose();
      gridHelper.geometry.dispose();
      for (const m of [gridHelper.material].flat()) m.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
    },
  };
}
