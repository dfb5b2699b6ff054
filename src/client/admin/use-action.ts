import { useCallback, useEffect, useRef, useState } from 'react';
import type { Result } from './admin-api.ts';

/**
 * One action's wait and error: `run` marks it busy (its button says "Saving…" and is disabled), and on a
 * failure keeps the server's sentence to show beside it. Nothing else changes on a failure.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async <T>(call: () => Promise<Result<T>>): Promise<T | null> => {
    setBusy(true);
    setError('');
    const result = await call();
    if (!mounted.current) return null;
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return null;
    }
    return result.data;
  }, []);

  const clear = useCallback(() => setError(''), []);
  return { busy, error, run, setError, clear };
}
