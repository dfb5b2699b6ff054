import type { ApiBody, ApiPath } from '../shared/api.ts';

// Calls to the shop's server. Same origin, so the session cookie always travels ("credentials"). Paths and
// bodies are typed from the shared route table (src/shared/api.ts): a call to a route the server does not
// have, or with a body it does not take, fails `npm run check`.

export function getJson(path: ApiPath<'GET'>, init: RequestInit = {}): Promise<Response> {
  return fetch(path, {
    credentials: 'include',
    ...init,
    headers: { Accept: 'application/json', ...init.headers },
  });
}

export function postJson<P extends ApiPath<'POST'>>(
  path: P,
  body: ApiBody<'POST', P>,
  init: RequestInit = {},
): Promise<Response> {
  return sendJson('POST', path, body, init);
}

export function putJson<P extends ApiPath<'PUT'>>(
  path: P,
  body: ApiBody<'PUT', P>,
  init: RequestInit = {},
): Promise<Response> {
  return sendJson('PUT', path, body, init);
}

export function deleteJson(path: ApiPath<'DELETE'>, init: RequestInit = {}): Promise<Response> {
  return fetch(path, {
    method: 'DELETE',
    credentials: 'include',
    ...init,
    headers: { Accept: 'application/json', ...init.headers },
  });
}

function sendJson(method: string, path: string, body: unknown, init: RequestInit): Promise<Response> {
  return fetch(path, {
    method,
    credentials: 'include',
    ...init,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...init.headers },
    body: JSON.stringify(body),
  });
}

/** The JSON body of a response, or an empty object when it has none or it does not parse. */
export async function readJson(res: Response): Promise<Record<string, unknown>> {
  try {
    const data: unknown = await res.json();
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The server's `error` text, if it sent one. */
export function errorText(data: Record<string, unknown>): string | undefined {
  return typeof data.error === 'string' && data.error ? data.error : undefined;
}

export function messageText(data: Record<string, unknown>): string | undefined {
  return typeof data.message === 'string' && data.message ? data.message : undefined;
}
