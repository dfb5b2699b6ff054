import type { ModelPayload, QuotePayload, QuoteRequest } from '../../shared/models.ts';
import { deleteJson, errorText, getJson, postJson, readJson } from '../api.ts';
import { readModel, readQuote } from './model-payload.ts';
import { UPLOAD_MSG } from './upload-messages.ts';

// The upload tool's calls: POST /api/uploads (with upload progress), GET /api/models/:id,
// /api/models/:id/scale, /api/quote.

/** `status`: the HTTP status of a failure, 0 when no answer came (network error, cancelled). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string; status?: number };

export type UploadHandlers = {
  /** Bytes of the request body sent so far, and its total. */
  onProgress(loaded: number, total: number): void;
  /** The whole file is sent; the server is analysing it. */
  onSent(): void;
};

export type UploadRequest = { done: Promise<Outcome<ModelPayload>>; abort(): void };

function parseJson(text: string): Record<string, unknown> {
  try {
    const data: unknown = JSON.parse(text);
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Whether trying the same upload again can help: no answer (network), too many requests, a busy or failing
 * server, a full disk. A refused model (400, 413, 415, 422) would only be refused again.
 */
export function isRetryable(status: number | undefined): boolean {
  return status === undefined || status === 0 || status === 408 || status === 429 || status >= 500;
}

/** The message for a failed call: the server's own `error` text first. */
export function failureText(status: number, data: Record<string, unknown>): string {
  const text = errorText(data);
  if (text) return text;
  if (status === 413) return UPLOAD_MSG.tooLarge;
  if (status === 429) return UPLOAD_MSG.tooMany;
  return UPLOAD_MSG.failed(status);
}

/** One file, one multipart request (field `file`), sent with XMLHttpRequest for real progress events. */
export function uploadModel(file: File, handlers: UploadHandlers): UploadRequest {
  const xhr = new XMLHttpRequest();
  let settled = false;
  const done = new Promise<Outcome<ModelPayload>>((resolve) => {
    const finish = (outcome: Outcome<ModelPayload>) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) handlers.onProgress(e.loaded, e.total);
    });
    xhr.upload.addEventListener('load', () => handlers.onSent());
    xhr.addEventListener('load', () => {
      const data = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300)
        return finish({ ok: false, error: failureText(xhr.status, data), status: xhr.status });
      const model = readModel(data);
      finish(model ? { ok: true, value: model } : { ok: false, error: UPLOAD_MSG.unreadableAnswer });
    });
    xhr.addEventListener('error', () => finish({ ok: false, error: UPLOAD_MSG.network, status: 0 }));
    xhr.addEventListener('timeout', () => finish({ ok: false, error: UPLOAD_MSG.network, status: 0 }));
    xhr.addEventListener('abort', () => finish({ ok: false, error: 'Upload cancelled.' }));
  });
  const form = new FormData();
  form.append('file', file, file.name);
  xhr.open('POST', '/api/uploads');
  xhr.withCredentials = true;
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.send(form);
  return {
    done,
    abort: () => {
      settled = true;
      xhr.abort();
    },
  };
}

/** A model uploaded earlier, asked for again (a remembered card); 404 when it is gone or not ours. */
export async function fetchModel(id: string, signal?: AbortSignal): Promise<Outcome<ModelPayload>> {
  try {
    const res = await getJson(`/api/models/${encodeURIComponent(id)}`, { signal });
    const data = await readJson(res);
    if (!res.ok) return { ok: false, error: failureText(res.status, data), status: res.status };
    const model = readModel(data);
    return model
      ? { ok: true, value: model }
      : { ok: false, error: UPLOAD_MSG.unreadableAnswer, status: res.status };
  } catch {
    return { ok: false, error: UPLOAD_MSG.network, status: 0 };
  }
}

/** The account's (or this browser's) models on the server, newest first: the cards of another device. */
export async function fetchMyModels(signal: AbortSignal): Promise<Outcome<ModelPayload[]>> {
  try {
    const res = await getJson('/api/models', { signal });
    const data = await readJson(res);
    if (!res.ok) return { ok: false, error: failureText(res.status, data), status: res.status };
    const list = Array.isArray(data.models) ? data.models : [];
    return { ok: true, value: list.map(readModel).filter((m): m is ModelPayload => m !== null) };
  } catch {
    return { ok: false, error: UPLOAD_MSG.network, status: 0 };
  }
}

/** Takes a model off the owner's list on the server (its card was removed); a failure only logs. */
export async function removeModel(id: string): Promise<void> {
  try {
    const res = await deleteJson(`/api/models/${encodeURIComponent(id)}`);
    if (!res.ok && res.status !== 404)
      console.warn(`Could not remove the model from your list (${res.status}).`);
  } catch (err) {
    console.warn('Could not remove the model from your list:', err);
  }
}

/** Asks the server to scale a model (25.4: inches to millimetres); the answer is a new, re-analysed model. */
export async function scaleModel(id: string, factor: number): Promise<Outcome<ModelPayload>> {
  try {
    const res = await postJson(`/api/models/${encodeURIComponent(id)}/scale`, { factor });
    const data = await readJson(res);
    if (!res.ok) return { ok: false, error: errorText(data) ?? UPLOAD_MSG.scaleFailed(res.status) };
    const model = readModel(data);
    return model ? { ok: true, value: model } : { ok: false, error: UPLOAD_MSG.unreadableAnswer };
  } catch {
    return { ok: false, error: UPLOAD_MSG.network };
  }
}

export async function fetchQuote(request: QuoteRequest, signal: AbortSignal): Promise<Outcome<QuotePayload>> {
  const res = await postJson('/api/quote', request, { signal });
  const data = await readJson(res);
  if (!res.ok) return { ok: false, error: errorText(data) ?? UPLOAD_MSG.quoteFailed };
  const quote = readQuote(data);
  return quote ? { ok: true, value: quote } : { ok: false, error: UPLOAD_MSG.quoteFailed };
}
