import type { z } from 'zod';
import type { adminPricingPreviewRequest } from '../../../shared/admin-settings.ts';
import type { ApiBody, ApiPath } from '../../../shared/api.ts';
import { errorText, postJson, putJson, readJson } from '../../api.ts';
import { MSG } from '../../messages.ts';

// The settings pages' saves and previews: the answer, or the server's sentence with the field it names
// (`{ error, field }`, docs/api.md "Admin"), so the page shows it beside that field. Never a throw.

export type SettingsResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; field: string | null; status: number };

async function answer<T>(res: Response): Promise<SettingsResult<T>> {
  const data = await readJson(res);
  if (res.ok) return { ok: true, data: data as T };
  return {
    ok: false,
    status: res.status,
    error:
      errorText(data) ?? `The server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`,
    field: typeof data.field === 'string' ? data.field : null,
  };
}

const network = { ok: false as const, status: 0, error: MSG.network, field: null };

/** PUT a section's full values; answers the section as the server now has it. */
export async function saveSettings<T, P extends ApiPath<'PUT'>>(
  path: P,
  body: ApiBody<'PUT', P>,
): Promise<SettingsResult<T>> {
  try {
    return await answer<T>(await putJson(path, body));
  } catch {
    return network;
  }
}

/** POST a pricing preview; an aborted call resolves to a failure the caller drops (it checks its signal). */
export async function previewPricing<T>(
  body: z.input<typeof adminPricingPreviewRequest>,
  signal: AbortSignal,
): Promise<SettingsResult<T>> {
  try {
    return await answer<T>(await postJson('/api/admin/settings/pricing/preview', body, { signal }));
  } catch {
    return network;
  }
}
