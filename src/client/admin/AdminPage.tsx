import { lazy, Suspense } from 'react';
import { Link, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../session/SessionProvider.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import CustomerPage from './customers/CustomerPage.tsx';
import CustomersPage from './customers/CustomersPage.tsx';
import { MessagesMenuLink } from './messages/MessagesMenuLink.tsx';
import MessagesPage from './messages/MessagesPage.tsx';
import OrderDetailPage from './OrderDetailPage.tsx';
import OrdersBoard from './OrdersBoard.tsx';
import { PaymentModeBadge } from './PaymentModeBadge.tsx';
import ProductionPage from './ProductionPage.tsx';
import SettingsPage from './settings/SettingsPage.tsx';
import './admin.css';

// The job tickets carry the QR code library, the dashboard its charts: their own chunks, loaded when opened.
const TicketsPage = lazy(() => import('./TicketsPage.tsx'));
const DashboardPage = lazy(() => import('./dashboard/DashboardPage.tsx'));

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
          <li>
            <NavLink to="/admin/customers">Customers</NavLink>
          </li>
          <li>
            <MessagesMenuLink />
          </li>
          <li>
            <NavLink to="/admin/settings">Settings</NavLink>
          </li>
          <li>
            <NavLink to="/admin/dashboard">Dashboard</NavLink>
          </li>
        </ul>
        <PaymentModeBadge />
      </nav>
      <Routes>
        <Route index element={<OrdersBoard />} />
        <Route path="orders" element={<OrdersBoard />} />
        <Route path="orders/:id" element={<OrderDetailPage />} />
        <Route path="production" element={<ProductionPage />} />
        <Route path="customers" element={<CustomersPage />} />
        <Route path="customers/:id" element={<CustomerPage />} />
        <Route path="messages" element={<MessagesPage />} />
        <Route path="settings/*" element={<SettingsPage />} />
        <Route
          path="dashboard"
          element={
            <Suspense fallback={<p className="loading">Loading the dashboard…</p>}>
              <DashboardPage />
            </Suspense>
          }
        />
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
