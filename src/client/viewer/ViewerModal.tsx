import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { BufferGeometry } from 'three';
import { formatDimensions } from '../../shared/format.ts';
import { useCoarsePointer } from '../ui/useCoarsePointer.ts';

import { fetchWithProgress, loadedText, percentOf } from './fetch-progress.ts';
import { parseViewMesh } from './load-model.ts';
import { createViewer, type Viewer, WebGLUnavailableError } from './scene.ts';
import { viewCompanions } from './view-url.ts';
import { VIEWER_MSG } from './viewer-messages.ts';
import './viewer.css';

/** Ready with coarse: a big model's rough first view, drawn while its full view still downloads. */
type Phase =
  | { kind: 'loading' }
  | { kind: 'ready'; cell: number; simplified: boolean; size: string; coarse: boolean }
  | { kind: 'error'; message: string };

type Progress = { loaded: number; total: number | null };

function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return !!gl;
  } catch {
    return false;
  }
}

/** The size drawn, in the model's axes (three's Y is the model's Z, up): what a test or a reader can check. */
function drawnSize(geometry: BufferGeometry): string {
  const box = geometry.boundingBox!;
  return formatDimensions({
    x: box.max.x - box.min.x,
    y: box.max.z - box.min.z,
    z: box.max.y - box.min.y,
  });
}

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** A coarse view if the server has one for this model (a big upload's, while its full view is made). */
async function fetchCoarse(url: string, signal: AbortSignal): Promise<ArrayBuffer | null> {
  const res = await fetch(url, { credentials: 'include', signal });
  return res.status === 200 ? res.arrayBuffer() : null;
}

/**
 * The 3D viewer: a modal dialog that downloads the model with progress and shows it with three.js. The
 * model's preview stands in until then; a big model just uploaded is drawn coarse first, then in full.
 */
export default function ViewerModal({
  url,
  fileName,
  color,
  scale = 1,
  onClose,
}: {
  url: string;
  fileName: string;
  color: string;
  /** The model's scale: a rescaled model shares its original file and is drawn at its own size. */
  scale?: number;
  onClose: () => void;
}) {
  const titleId = useId();
  const hintId = `${titleId}-hint`;
  const touch = useCoarsePointer();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<Viewer | null>(null);
  const colorRef = useRef(color);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [progress, setProgress] = useState<Progress>({ loaded: 0, total: null });
  const [pictured, setPictured] = useState(true);
  const companions = viewCompanions(url);

  // Focus moves into the dialog and back to where it was; the page behind does not scroll; Escape closes.
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    closeRef.current?.focus();
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onCloseRef.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  // Download, parse, show (a coarse view first when the server has one, in parallel); everything is given
  // back when the dialog closes.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const coarseUrl = viewCompanions(url)?.coarse;
    let viewer: Viewer | null = null;
    let full = false;
    setPhase({ kind: 'loading' });
    setProgress({ loaded: 0, total: null });
    setPictured(true);
    /** Draws geometry: the first view, or the full one in place of a coarse one. */
    const show = (geometry: BufferGeometry, simplified: boolean, coarse: boolean) => {
      if (scale !== 1) geometry.scale(scale, scale, scale);
      if (signal.aborted || !stageRef.current) {
        geometry.dispose();
        return;
      }
      if (viewer) viewer.setGeometry(geometry);
      else {
        try {
          viewer = createViewer(stageRef.current, geometry, colorRef.current, `3D model of ${fileName}`);
        } catch (err) {
          geometry.dispose();
          throw err;
        }
        viewerRef.current = viewer;
      }
      setPhase({ kind: 'ready', cell: viewer.grid.cell, simplified, size: drawnSize(geometry), coarse });
    };
    (async () => {
      if (!webglAvailable()) return setPhase({ kind: 'error', message: VIEWER_MSG.noWebgl });
      if (coarseUrl) {
        // A bonus: whatever happens to it, the full view comes all the same.
        void (async () => {
          const bytes = await fetchCoarse(coarseUrl, signal);
          if (!bytes || full) return;
          const geometry = await parseViewMesh(bytes);
          if (full) geometry.dispose();
          else show(geometry, true, true);
        })().catch(() => {});
      }
      let lastPercent = -1;
      let simplified = false;
      try {
        const bytes = await fetchWithProgress(
          url,
          (loaded, total) => {
            const percent = percentOf(loaded, total) ?? Math.floor(loaded / 65536);
            if (percent === lastPercent) return;
            lastPercent = percent;
            setProgress({ loaded, total });
          },
          signal,
          (headers) => {
            simplified = headers.get('x-view-simplified') === '1';
          },
        );
        if (signal.aborted) return;
        const geometry = await parseViewMesh(bytes);
        full = true;
        show(geometry, simplified, false);
      } catch (err) {
        if (signal.aborted) return;
        console.warn('3D viewer:', err);
        setPhase({
          kind: 'error',
          message: err instanceof WebGLUnavailableError ? VIEWER_MSG.noWebgl : VIEWER_MSG.loadFailed,
        });
      }
    })();
    return () => {
      controller.abort();
      viewer?.dispose();
      viewerRef.current = null;
    };
  }, [url, fileName, scale]);

  useEffect(() => {
    colorRef.current = color;
    viewerRef.current?.setColor(color);
  }, [color]);

  // Tab stays inside the dialog.
  const trapFocus = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !dialogRef.current) return;
    const items = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const ready = phase.kind === 'ready';
  const coarse = ready && phase.coarse;
  const loading = phase.kind === 'loading' || coarse;
  const percent = loading ? percentOf(progress.loaded, progress.total) : null;
  const progressText = percent === null ? loadedText(progress.loaded) : `${percent}%`;

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog closes it; Escape and Close do too
    <div
      className="modal-backdrop viewer-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="modal viewer-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={hintId}
        onKeyDown={trapFocus}
      >
        <header className="viewer-head">
          <h2 id={titleId}>
            <span className="viewer-kicker">3D view</span> <span className="viewer-file">{fileName}</span>
          </h2>
          <button ref={closeRef} type="button" className="button button-small" onClick={onClose}>
            Close
          </button>
        </header>

        <div
          className="viewer-frame"
          data-view={ready ? (coarse ? 'coarse' : 'full') : undefined}
          data-drawn-size={ready && !coarse ? phase.size : undefined}
        >
          {phase.kind === 'loading' && companions && pictured && (
            // The model's picture until it is drawn: something to look at from the first moment.
            <img
              className="viewer-placeholder"
              src={companions.preview}
              alt=""
              onError={() => setPictured(false)}
            />
          )}
          <div ref={stageRef} className="viewer-stage" />
          {phase.kind === 'loading' && (
            <div className="viewer-overlay">
              <p id={`${titleId}-loading`}>Loading the model…</p>
              <progress
                aria-labelledby={`${titleId}-loading`}
                max={100}
                {...(percent === null ? {} : { value: percent })}
              />
              <p className="viewer-progress-text">{progressText}</p>
            </div>
          )}
          {coarse && (
            <div className="viewer-refining" role="status">
              <span id={`${titleId}-refining`}>Loading full detail…</span>
              <progress
                aria-labelledby={`${titleId}-refining`}
                max={100}
                {...(percent === null ? {} : { value: percent })}
              />
            </div>
          )}
          {phase.kind === 'error' && (
            <div className="viewer-overlay">
              <p className="alert alert-error" role="alert">
                {phase.message}
              </p>
            </div>
          )}
        </div>

        <footer className="viewer-foot">
          <p className="viewer-hint" id={hintId}>
            {touch
              ? 'Drag with one finger to turn, pinch to zoom, drag with two fingers to move.'
              : 'Drag to turn, scroll or pinch to zoom, right-drag to move.'}
            {ready && ` Grid squares are ${phase.cell} mm.`}
            {ready &&
              phase.simplified &&
              !coarse &&
              ' Simplified for display: the print uses every detail of your file.'}
          </p>
          <button
            type="button"
            className="button button-small"
            disabled={!ready}
            onClick={() => viewerRef.current?.fitToView()}
          >
            Fit to view
          </button>
        </footer>
      </div>
    </div>,
    document.body,
  );
}
