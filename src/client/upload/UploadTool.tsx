import { lazy, Suspense, useEffect, useReducer, useRef, useState } from 'react';
import { DropZone } from './DropZone.tsx';
import { ModelCard, type ViewRequest } from './ModelCard.tsx';
import { type UploadRequest, uploadModel } from './model-api.ts';
import { UploadRow } from './UploadRow.tsx';
import { entriesToStart, fileBytesSent, PARALLEL_UPLOADS, uploadReducer } from './upload-list.ts';
import './upload.css';

const ViewerModal = lazy(() => import('../viewer/ViewerModal.tsx'));

/** The upload tool of the home page: files in, priced model cards out (loaded lazily). */
export default function UploadTool() {
  const [entries, dispatch] = useReducer(uploadReducer, []);
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
        dispatch(
          outcome.ok
            ? { type: 'done', key, model: outcome.value }
            : { type: 'failed', key, error: outcome.error },
        );
      });
    }
  }, [entries, parallel]);

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
    dispatch({ type: 'add', files, keys: files.map(() => `upload-${++nextKey.current}`) });
  };

  const remove = (key: string) => {
    requests.current.get(key)?.abort();
    requests.current.delete(key);
    dispatch({ type: 'remove', key });
  };

  const pending = entries.filter((e) => e.status !== 'done');
  const done = entries.filter((e) => e.status === 'done' && e.model);

  return (
    <div className="upload-tool">
      <DropZone onFiles={addFiles} />

      {pending.length > 0 && (
        <ul className="upload-rows" aria-label="Files being uploaded">
          {pending.map((entry) => (
            <UploadRow
              key={entry.key}
              entry={entry}
              onRetry={() => dispatch({ type: 'retry', key: entry.key })}
              onRemove={() => remove(entry.key)}
            />
          ))}
        </ul>
      )}

      {done.length > 0 && (
        <div className="model-grid">
          {done.map((entry) => (
            <ModelCard
              key={entry.key}
              model={entry.model!}
              onReplace={(model) => dispatch({ type: 'done', key: entry.key, model })}
              onRemove={() => remove(entry.key)}
              onView={setViewing}
            />
          ))}
        </div>
      )}

      {viewing && (
        <Suspense
          fallback={
            <p className="loading" role="status">
              Opening the 3D viewer…
            </p>
          }
        >
          <ViewerModal {...viewing} onClose={() => setViewing(null)} />
        </Suspense>
      )}
    </div>
  );
}
