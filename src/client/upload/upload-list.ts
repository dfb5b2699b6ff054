import { checkModelFile } from './file-checks.ts';

// The files the customer has given us, each on its way from "waiting" to a priced model card (a file
// leaves this list when its model comes back: the card is model-cards.ts's).

export const PARALLEL_UPLOADS = 2;

export type Entry = {
  key: string;
  file: File;
  status: 'queued' | 'uploading' | 'analysing' | 'error' | 'rejected';
  /** Bytes of the file sent so far. */
  sent: number;
  error: string;
};

export type Action =
  | { type: 'add'; files: File[]; keys: string[] }
  | { type: 'start'; key: string }
  | { type: 'progress'; key: string; sent: number }
  | { type: 'sent'; key: string }
  | { type: 'failed'; key: string; error: string; retryable: boolean }
  | { type: 'retry'; key: string }
  | { type: 'remove'; key: string };

const update = (entries: Entry[], key: string, change: (e: Entry) => Entry) =>
  entries.map((e) => (e.key === key ? change(e) : e));

export function uploadReducer(entries: Entry[], action: Action): Entry[] {
  switch (action.type) {
    case 'add':
      return [
        ...entries,
        ...action.files.map((file, i): Entry => {
          const problem = checkModelFile(file);
          return {
            key: action.keys[i]!,
            file,
            status: problem ? 'rejected' : 'queued',
            sent: 0,
            error: problem ?? '',
          };
        }),
      ];
    case 'start':
      return update(entries, action.key, (e) => ({ ...e, status: 'uploading', sent: 0, error: '' }));
    case 'progress':
      return update(entries, action.key, (e) =>
        e.status === 'uploading' ? { ...e, sent: Math.min(action.sent, e.file.size) } : e,
      );
    case 'sent':
      return update(entries, action.key, (e) =>
        e.status === 'uploading' ? { ...e, status: 'analysing', sent: e.file.size } : e,
      );
    case 'failed':
      // Only a failure that may pass next time offers Retry; a refused model is shown as refused.
      return update(entries, action.key, (e) => ({
        ...e,
        status: action.retryable ? 'error' : 'rejected',
        error: action.error,
      }));
    case 'retry':
      return update(entries, action.key, (e) =>
        e.status === 'error' ? { ...e, status: 'queued', sent: 0, error: '' } : e,
      );
    case 'remove':
      return entries.filter((e) => e.key !== action.key);
  }
}

/** The queued entries to start now so that at most `parallel` requests run at once. */
export function entriesToStart(entries: Entry[], parallel = PARALLEL_UPLOADS): Entry[] {
  const running = entries.filter((e) => e.status === 'uploading' || e.status === 'analysing').length;
  return entries.filter((e) => e.status === 'queued').slice(0, Math.max(0, parallel - running));
}

/** The file's share of a multipart body's progress (the body is a little larger than the file). */
export function fileBytesSent(loaded: number, total: number, fileSize: number): number {
  if (total <= 0) return 0;
  return Math.min(fileSize, Math.round((loaded / total) * fileSize));
}
