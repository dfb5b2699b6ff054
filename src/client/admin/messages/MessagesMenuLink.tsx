import { useEffect } from 'react';
import './messages.css';
import { NavLink, useLocation } from 'react-router';
import { refreshUnhandledCount, useUnhandledCount } from './unhandled-count.ts';

/** The panel menu's "Messages" entry with the unhandled count: its name reads "Messages 3 unhandled". */
export function MessagesMenuLink() {
  const count = useUnhandledCount();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again on each page of the panel.
  useEffect(() => {
    const controller = new AbortController();
    void refreshUnhandledCount(controller.signal);
    return () => controller.abort();
  }, [pathname]);
  return (
    <NavLink to="/admin/messages">
      Messages
      {count !== null && count > 0 && (
        <>
          {' '}
          <span className="nav-count" data-testid="unhandled-count">
            {count}
            <span className="visually-hidden"> unhandled</span>
          </span>
        </>
      )}
    </NavLink>
  );
}
