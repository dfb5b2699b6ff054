import { fileExtension, formatBytes, progressText } from './file-checks.ts';
import type { Entry } from './upload-list.ts';

/** A file on its way: waiting, uploading (real progress), analysing, or failed with the server's reason. */
export function UploadRow({
  entry,
  onRetry,
  onRemove,
}: {
  entry: Entry;
  onRetry: () => void;
  onRemove: () => void;
}) {
  const { file, status } = entry;
  const failed = status === 'error' || status === 'rejected';
  return (
    <li className={`card upload-row${failed ? ' is-failed' : ''}`}>
      <div className="upload-row-head">
        <span className="file-badge" aria-hidden="true">
          {fileExtension(file.name).slice(1, 5).toUpperCase() || 'FILE'}
        </span>
        <span className="upload-row-name">{file.name}</span>
        <span className="upload-row-size">{formatBytes(file.size)}</span>
        <div className="upload-row-actions">
          {status === 'error' && (
            <button type="button" className="button button-small" onClick={onRetry}>
              Retry
            </button>
          )}
          <button
            type="button"
            className="link-button danger"
            aria-label={`${failed ? 'Remove' : 'Cancel'} ${file.name}`}
            onClick={onRemove}
          >
            {failed ? 'Remove' : 'Cancel'}
          </button>
        </div>
      </div>

      {status === 'queued' && (
        <p className="upload-row-status" role="status">
          Waiting to upload…
        </p>
      )}
      {status === 'uploading' && (
        <div className="upload-row-progress">
          <progress max={Math.max(file.size, 1)} value={entry.sent} aria-label={`Uploading ${file.name}`} />
          <span className="upload-row-status">{progressText(entry.sent, file.size)}</span>
        </div>
      )}
      {status === 'analysing' && (
        <div className="upload-row-progress">
          <progress aria-label={`Analysing ${file.name}`} />
          <span className="upload-row-status" role="status">
            Analysing…
          </span>
        </div>
      )}
      {failed && (
        <p className="upload-row-error" role="alert">
          {entry.error}
        </p>
      )}
    </li>
  );
}
