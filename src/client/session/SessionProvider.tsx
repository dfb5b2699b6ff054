import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { getJson } from '../api.ts';
import { clearCart } from '../cart/cart-store.ts';
import { endCartSync, startCartSync } from '../cart/cart-sync.ts';
import { forgetSavedModels } from '../upload/saved-models-key.ts';
import { checkSession, fetchIsAdmin, INITIAL_SESSION, type SessionState } from './session-machine.ts';

type SessionApi = SessionState & {
  /** After a successful login: sets the user, then asks whether they are an admin. */
  loggedIn(username: string): Promise<void>;
  /** Calls the server and clears the user, the admin flag and the cart even if the call fails. */
  logout(): Promise<void>;
  /**
   * The server answered 401 to a call that needs a login (the session expired or ended elsewhere): logged
   * out and not an admin, as after a failed session check, but the cart stays on this browser for the login
   * that follows (it still mirrors the account, so logging in again does not add its lines twice).
   */
  sessionEnded(): void;
};

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(INITIAL_SESSION);
  /** Set by sessionEnded: the next logged-out state keeps the cart. */
  const keepCart = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    checkSession(controller.signal).then((result) => {
      // Results are ignored once the view is gone.
      if (!controller.signal.aborted) setState({ ...result, loading: false });
    });
    return () => controller.abort();
  }, []);

  // A logged-in customer's cart follows the account (cart-sync.ts); a session that ended elsewhere does not
  // leave the account's cart on this browser.
  useEffect(() => {
    if (state.loading) return;
    if (state.username) void startCartSync(state.username);
    else if (keepCart.current) keepCart.current = false;
    else if (endCartSync()) clearCart();
  }, [state.username, state.loading]);

  const loggedIn = useCallback(async (username: string) => {
    setState({ username, isAdmin: false, loading: false });
    const isAdmin = await fetchIsAdmin();
    setState((s) => (s.username === username ? { ...s, isAdmin } : s));
  }, []);

  const logout = useCallback(async () => {
    try {
      await getJson('/api/logout.php');
    } catch (err) {
      console.warn('Logout call failed:', err);
    }
    endCartSync();
    clearCart();
    forgetSavedModels();
    setState({ username: null, isAdmin: false, loading: false });
  }, []);

  const sessionEnded = useCallback(() => {
    keepCart.current = true;
    setState({ username: null, isAdmin: false, loading: false });
  }, []);

  const value = useMemo(
    () => ({ ...state, loggedIn, logout, sessionEnded }),
    [state, loggedIn, logout, sessionEnded],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
