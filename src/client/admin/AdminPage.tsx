import { lazy, Suspense } from 'react';
import { Link, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../session/SessionProvider.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import OrderDetailPage from './OrderDetailPage.tsx';
import OrdersBoard from './OrdersBoard.tsx';
import ProductionPage from './ProductionPage.tsx';
import './admin.css';

// The job tickets carry the QR code library: their own chunk, loaded when printed.
const TicketsPage = lazy(() => import('./TicketsPage.tsx'));

function Refused({ username }: { username: string | null }) {
  useDocumentTitle('Admin Panel');
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

/**
 * /admin/*: the staff's panel (docs/pages.md): the orders board, an order, the production sheet and the job
 * tickets. Every admin call is checked on the server; this page only hides the panel from everyone else.
 */
export default function AdminPage() {
  const { username, isAdmin, loading } = useSession();
  const { pathname } = useLocation();
  if (loading) return <p className="page loading">Checking your session…</p>;
  if (!username || !isAdmin) return <Refused username={username} />;
  const onOrders = pathname === '/admin' || pathname === '/admin/' || pathname.startsWith('/admin/orders');
  return (
    <div className="page admin-shell">
      <nav className="admin-nav" aria-label="Admin">
        <ul>
          <li>
            {/* Active on the board and on an order, which the board leads to. */}
            <Link
              to="/admin"
              className={onOrders ? 'active' : undefined}
              aria-current={onOrders ? 'page' : undefined}
            >
              Orders
            </Link>
          </li>
          <li>
            <NavLink to="/admin/production">Production sheet</NavLink>
          </li>
        </ul>
      </nav>
      <Routes>
        <Route index element={<OrdersBoard />} />
        <Route path="orders" element={<OrdersBoard />} />
        <Route path="orders/:id" element={<OrderDetailPage />} />
        <Route path="production" element={<ProductionPage />} />
        <Route
          path="tickets"
          element={
            <Suspense fallback={<p className="loading">Loading the tickets…</p>}>
              <TicketsPage />
            </Suspense>
          }
        />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Routes>
    </div>
  );
}
