import { Suspense, useEffect, useReducer, useRef, useState } from 'react';
import { LazyViewerModal, prefetchViewer } from '../viewer/lazy-viewer.ts';
import { DropZone } from './DropZone.tsx';
import { ModelCard, type ViewRequest } from './ModelCard.tsx';
import { isRetryable, type UploadRequest, uploadModel } from './model-api.ts';
import { SavedModelsList } from './SavedModelsList.tsx';
import { newestFirst, startsUpload } from './saved-list.ts';
import { UploadRow } from './UploadRow.tsx';
import { entriesToStart, fileBytesSent, PARALLEL_UPLOADS, uploadReducer } from './upload-list.ts';
import { useModelCards } from './use-model-cards.ts';
import { useOpenCards } from './use-open-cards.ts';
import './upload.css';

/**
 * The upload tool of the home page: files in, priced model cards out (loaded lazily). The models are a
 * compact list, newest first; this visit's uploads open as full cards, any row opens to edit.
 */
export default function UploadTool() {
  const [entries, dispatch] = useReducer(uploadReducer, []);
  const models = useModelCards();
  const { add: addCard } = models;
  const { open, dispatch: openDispatch } = useOpenCards(models.cards);
  const [viewing, setViewing] = useState<ViewRequest | null>(null);
  const requests = useRef(new Map<string, UploadRequest>());
  const nextKey = useRef(0);
  // The server gives a new browser its `visitor` cookie with the answer to its first upload: until one
  // answer has come back, one upload at a time, so two first uploads cannot get two different cookies.
  const [parallel, setParallel] = useState(1);

  // Start waiting files, at most two requests at a time.
  useEffect(() => {
    for (const entry of entriesToStart(entries, parallel)) {
      const { key, file } = entry;
      dispatch({ type: 'start', key });
      const request = uploadModel(file, {
        onProgress: (loaded, total) =>
          dispatch({ type: 'progress', key, sent: fileBytesSent(loaded, total, file.size) }),
        onSent: () => dispatch({ type: 'sent', key }),
      });
      requests.current.set(key, request);
      request.done.then((outcome) => {
        if (requests.current.get(key) !== request) return;
        requests.current.delete(key);
        if (outcome.ok || outcome.status !== 0) setParallel(PARALLEL_UPLOADS);
        if (outcome.ok) {
          dispatch({ type: 'remove', key });
          openDispatch({ type: 'uploaded', key: addCard(outcome.value) });
        } else {
          dispatch({ type: 'failed', key, error: outcome.error, retryable: isRetryable(outcome.status) });
        }
      });
    }
  }, [entries, parallel, addCard, openDispatch]);

  // A file dropped beside the drop zone must not make the browser leave the shop to open it.
  useEffect(() => {
    const ignore = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    window.addEventListener('dragover', ignore);
    window.addEventListener('drop', ignore);
    return () => {
      window.removeEventListener('dragover', ignore);
      window.removeEventListener('drop', ignore);
    };
  }, []);

  // Leaving the page cancels what is still on its way.
  useEffect(() => {
    const running = requests.current;
    return () => {
      for (const r of running.values()) r.abort();
      running.clear();
    };
  }, []);

  const addFiles = (files: File[]) => {
    if (files.length === 0) return;
    // Uploading another: the last upload's cards fold into their rows, the new ones open as they come.
    if (startsUpload(files)) openDispatch({ type: 'uploading' });
    dispatch({ type: 'add', files, keys: files.map(() => `upload-${++nextKey.current}`) });
  };

  const remove = (key: string) => {
    requests.current.get(key)?.abort();
    requests.current.delete(key);
    dispatch({ type: 'remove', key });
  };

  const rows = newestFirst(models.cards);
  const restoring = models.cards.some((c) => c.status === 'loading' && !c.model);
  const unreachable = models.cards.filter((c) => c.status === 'unreachable').length;
  // A priced model's card offers 'View 3D': the viewer's code is fetched while a file uploads, or once
  // such a card shows, so that a click the moment an upload answers does not wait for it.
  const viewerLikely = entries.length > 0 || models.cards.some((c) => c.model);
  useEffect(() => {
    if (viewerLikely) prefetchViewer();
  }, [viewerLikely]);

  return (
    <div className="upload-tool">
      <DropZone onFiles={addFiles} />

      {entries.length > 0 && (
        <ul className="upload-rows" aria-label="Files being uploaded">
          {entries.map((entry) => (
            <UploadRow
              key={entry.key}
              entry={entry}
              onRetry={() => dispatch({ type: 'retry', key: entry.key })}
              onRemove={() => remove(entry.key)}
            />
          ))}
        </ul>
      )}

      {restoring && (
        <p className="loading" role="status">
          Loading your models…
        </p>
      )}
      {unreachable > 0 && (
        <div className="alert alert-warning saved-models-notice" role="status">
          <span>
            {unreachable === 1
              ? 'One of your models could not be loaded just now.'
              : `${unreachable} of your models could not be loaded just now.`}
          </span>
          <button type="button" className="button button-small" onClick={models.retry}>
            Try again
          </button>
        </div>
      )}

      {rows.length > 0 && (
        <SavedModelsList
          rows={rows}
          open={open}
          onToggle={(key) => openDispatch({ type: 'toggle', key })}
          renderCard={(card) => (
            <ModelCard
              model={card.model!}
              choices={card.choices}
              onChoose={(choices) => models.choose(card.key, choices)}
              onReplace={(model) => models.rescaled(card.key, model)}
              onRemove={() => models.remove(card.key)}
              onView={setViewing}
            />
          )}
        />
      )}

      {viewing && (
        <Suspense
          fallback={
            <p className="loading" role="status">
              Opening the 3D viewer…
            </p>
          }
        >
          <LazyViewerModal {...viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </div>
  );
}
