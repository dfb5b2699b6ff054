// Calls to the shop's server. Same origin, so the session cookie always travels ("credentials").

export function getJson(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(path, {
    credentials: 'include',
    ...init,
    headers: { Accept: 'application/json', ...init.headers },
  });
}

export function postJson(path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(path, {
    method: 'POST',
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
