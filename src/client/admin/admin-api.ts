import type { AdminOrderDetail } from '../../shared/admin.ts';
import type { ApiBody, ApiPath } from '../../shared/api.ts';
import { errorText, getJson, postJson, readJson } from '../api.ts';
import { MSG } from '../messages.ts';

// The panel's calls to /api/admin/... (src/shared/api.ts, docs/api.md "Admin"): an answer or the server's
// own error sentence, never a throw, so every action can show what went wrong beside its button.

export type Result<T> = { ok: true; data: T } | { ok: false; error: string; status: number };

function failure(res: Response, data: Record<string, unknown>): Result<never> {
  return {
    ok: false,
    status: res.status,
    error:
      errorText(data) ?? `The server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`,
  };
}

/** GET a JSON answer. An aborted call resolves to a failure the caller drops (it checks its signal). */
export async function load<T>(path: ApiPath<'GET'>, signal?: AbortSignal): Promise<Result<T>> {
  try {
    const res = await getJson(path, { signal });
    const data = await readJson(res);
    return res.ok ? { ok: true, data: data as T } : failure(res, data);
  } catch {
    return { ok: false, status: 0, error: MSG.network };
  }
}

/** POST a JSON body; the answer as it came. */
export async function send<T, P extends ApiPath<'POST'>>(
  path: P,
  body: ApiBody<'POST', P>,
): Promise<Result<T>> {
  try {
    const res = await postJson(path, body);
    const data = await readJson(res);
    return res.ok ? { ok: true, data: data as T } : failure(res, data);
  } catch {
    return { ok: false, status: 0, error: MSG.network };
  }
}

/** An order-changing POST: every one answers `{ order }`, the order as it is now. */
export async function changeOrder<P extends ApiPath<'POST'>>(
  path: P,
  body: ApiBody<'POST', P>,
): Promise<Result<AdminOrderDetail>> {
  const result = await send<{ order?: AdminOrderDetail }, P>(path, body);
  if (!result.ok) return result;
  if (!result.data.order) return { ok: false, status: 200, error: 'The server did not send the order back.' };
  return { ok: true, data: result.data.order };
}

export const orderPath = (id: number | string) =>
  `/api/admin/orders/${encodeURIComponent(String(id))}` as const;
export const modelFileUrl = (modelId: string) => `/api/models/${encodeURIComponent(modelId)}/file`;
