import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { type NotFoundState, notFoundPath, shownPath } from './not-found.ts';
import './not-found.css';

/** Any path without a page (routes.tsx's catch-all): to the home page, carrying the path that was asked for. */
export function NotFoundRedirect() {
  const { pathname } = useLocation();
  const state: NotFoundState = { notFound: pathname };
  return <Navigate to="/" replace state={state} />;
}

/**
 * "We couldn't find the page …" above the page an unknown path was sent to. It lives in the location's state,
 * so the next navigation leaves it behind; Dismiss hides it sooner.
 */
export function NotFoundNotice() {
  const location = useLocation();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const path = notFoundPath(location.state);
  if (path === null || dismissed === location.key) return null;
  return (
    <div className="not-found-notice">
      <p role="status">
        We couldn't find the page <span className="not-found-path">{shownPath(path)}</span>. Here is the home
        page instead.
      </p>
      <button
        type="button"
        className="not-found-dismiss"
        aria-label="Dismiss this notice"
        onClick={() => setDismissed(location.key)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
