import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RedirectIfLoggedIn, RequireLogin } from './account/guards.tsx';
import { Layout } from './layout/Layout.tsx';
import HomePage from './pages/HomePage.tsx';
import { PaymentCancelPage, PaymentSuccessPage } from './pages/PaymentPages.tsx';

// Every route of docs/pages.md, and the payment simulator's page. Pages other than home load lazily; the admin
// panel is its own chunk.

const lazyPage = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // Shown while a lazy page loads on a direct visit (without it React Router warns on every such load).
    hydrateFallbackElement: <p className="page loading">Loading…</p>,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/about', lazy: lazyPage(() => import('./pages/AboutPage.tsx')) },
      { path: '/contact', lazy: lazyPage(() => import('./pages/ContactPage.tsx')) },
      { path: '/faq', lazy: lazyPage(() => import('./pages/FaqPage.tsx')) },
      { path: '/forgot-password', lazy: lazyPage(() => import('./account/ForgotPasswordPage.tsx')) },
      { path: '/reset-password', lazy: lazyPage(() => import('./account/ResetPasswordPage.tsx')) },
      {
        element: <RedirectIfLoggedIn />,
        children: [
          { path: '/login', lazy: lazyPage(() => import('./account/LoginPage.tsx')) },
          { path: '/register', lazy: lazyPage(() => import('./account/RegisterPage.tsx')) },
        ],
      },
      {
        element: <RequireLogin />,
        children: [{ path: '/orders', lazy: lazyPage(() => import('./pages/OrdersPage.tsx')) }],
      },
      { path: '/payment-success', element: <PaymentSuccessPage /> },
      { path: '/payment-cancel', element: <PaymentCancelPage /> },
      { path: '/admin/*', lazy: lazyPage(() => import('./admin/AdminPage.tsx')) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
  // The payment simulator's hosted page stands in for the provider's own site: no shop navigation around it.
  { path: '/pay/simulator/:sessionId', lazy: lazyPage(() => import('./pay/SimulatorPage.tsx')) },
];

export const createRouter = () => createBrowserRouter(routes);
