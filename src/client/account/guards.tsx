import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../session/SessionProvider.tsx';

function Checking() {
  return (
    <p className="page loading" role="status">
      Checking your session…
    </p>
  );
}

/** Sends a logged-out visitor to /login, remembering where they came from. */
export function RequireLogin() {
  const { username, loading } = useSession();
  const location = useLocation();
  if (loading) return <Checking />;
  if (!username) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}

/** /login and /register send a logged-in user to /. */
export function RedirectIfLoggedIn() {
  const { username, loading } = useSession();
  if (loading) return <Checking />;
  if (username) return <Navigate to="/" replace />;
  return <Outlet />;
}
