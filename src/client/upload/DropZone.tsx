import { type DragEvent, useId, useRef, useState } from 'react';
import { useCoarsePointer } from '../ui/useCoarsePointer.ts';

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

function UploadIcon() {
  return (
    <svg
      className="drop-icon"
      aria-hidden="true"
      width="48"
      height="48"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M12 2.8 20 7.4v9.2l-8 4.6-8-4.6V7.4z" />
      <path d="M4 7.4l8 4.6 8-4.6M12 12v9.2" />
    </svg>
  );
}

/** Drag and drop, or a real file input behind a visible "Choose files" label (keyboard: Tab, then Space). */
export function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const touch = useCoarsePointer();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut; the file input is the keyboard path
    <div
      className={over ? 'drop-zone is-over' : 'drop-zone'}
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        onFiles(Array.from(e.dataTransfer.files));
      }}
    >
      <UploadIcon />
      <p className="drop-title">
        {over
          ? 'Drop to upload'
          : touch
            ? 'Choose your 3D models to upload'
            : 'Drag and drop your 3D models here'}
      </p>
      <p className="drop-hint" id={hintId}>
        STL, OBJ or 3MF, up to 64 MB each
      </p>
      <input
        id={inputId}
        className="file-input"
        type="file"
        accept=".stl,.obj,.3mf"
        multiple
        aria-describedby={hintId}
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
      <label htmlFor={inputId} className="button button-primary button-large">
        Choose files
      </label>
    </div>
  );
}
