import { getJson } from '../api.ts';

// The session check (GET /api/check_session.php, docs/api.md): loading, then logged in (with the admin flag) or logged out.

export type SessionState = { username: string | null; isAdmin: boolean; loading: boolean };

export const INITIAL_SESSION: SessionState = { username: null, isAdmin: false, loading: true };

/** Asks the server whether the user is an admin; anything but `isAdmin === true` means no. */
export async function fetchIsAdmin(signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await getJson('/api/get_user_role.php', { signal });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      console.warn(`Role check failed: ${res.status}`);
      return false;
    }
    const data = (await res.json()) as { isAdmin?: unknown };
    return data.isAdmin === true;
  } catch (err) {
    if (!signal?.aborted) console.warn('Role check failed:', err);
    return false;
  }
}

/** Runs the whole start-up check. Any failure means logged out and not an admin. */
export async function checkSession(signal?: AbortSignal): Promise<Omit<SessionState, 'loading'>> {
  const loggedOut = { username: null, isAdmin: false };
  try {
    const res = await getJson('/api/check_session.php', { signal });
    if (!res.ok) {
      // Drain the body so the connection is released. 401 is the ordinary logged-out answer: silent.
      await res.body?.cancel().catch(() => {});
      if (res.status !== 401) console.warn(`Session check failed: ${res.status}`);
      return loggedOut;
    }
    const data = (await res.json()) as { loggedIn?: unknown; username?: unknown };
    if (!data.loggedIn || typeof data.username !== 'string' || !data.username) return loggedOut;
    return { username: data.username, isAdmin: await fetchIsAdmin(signal) };
  } catch (err) {
    if (!signal?.aborted) console.warn('Session check failed:', err);
    return loggedOut;
  }
}
