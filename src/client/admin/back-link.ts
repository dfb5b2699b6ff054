import { useLocation } from 'react-router';

/** Where "back" goes: the page the admin came from in the panel (the board with its filters), else the board. */
export function useBackLink(): string {
  const state = useLocation().state as { back?: unknown } | null;
  return typeof state?.back === 'string' && state.back.startsWith('/admin') ? state.back : '/admin';
}
