import { Link } from 'react-router';
import { useSession } from '../session/SessionProvider.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

/** /admin/: the staff's panel. Every admin call is checked on the server; this page only hides the UI. */
export default function AdminPage() {
  useDocumentTitle('Admin Panel');
  const { username, isAdmin, loading } = useSession();
  if (loading) return <p className="page loading">Checking your session…</p>;
  if (!username || !isAdmin) {
    return (
      <section className="page prose" aria-labelledby="admin-title">
        <h1 id="admin-title">Admin Panel</h1>
        <p>
          This page is for the shop's staff.{' '}
          {username ? 'Your account is not an admin.' : <Link to="/login">Log in</Link>}
        </p>
      </section>
    );
  }
  return (
    <section className="page prose" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin Panel</h1>
      <p className="placeholder-note" role="note">
        Placeholder: orders, models, messages and settings arrive with the admin panel issue.
      </p>
    </section>
  );
}
