import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RedirectIfLoggedIn, RequireLogin } from './account/guards.tsx';
import { Layout } from './layout/Layout.tsx';
import { NotFoundRedirect } from './layout/NotFound.tsx';
import { RouteLoading } from './layout/RouteLoading.tsx';
import HomePage from './pages/HomePage.tsx';
import { PaymentCancelPage, PaymentSuccessPage } from './pages/PaymentPages.tsx';

// Every route of docs/pages.md, and the payment simulator's page. Pages other than home load lazily; the admin
// panel is its own chunk.

/**
 * A page loaded when first visited. On a direct visit its own "Loading…" fills the page's place while the
 * code arrives, inside the layout around it (without one React Router warns on every such load).
 */
const lazyPage = (
  path: string,
  load: () => Promise<{ default: ComponentType }>,
  fallback = <RouteLoading />,
): RouteObject => ({
  path,
  lazy: async () => ({ Component: (await load()).default }),
  hydrateFallbackElement: fallback,
});

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      lazyPage('/about', () => import('./pages/AboutPage.tsx')),
      lazyPage('/contact', () => import('./pages/ContactPage.tsx')),
      lazyPage('/faq', () => import('./pages/FaqPage.tsx')),
      lazyPage('/forgot-password', () => import('./account/ForgotPasswordPage.tsx')),
      lazyPage('/reset-password', () => import('./account/ResetPasswordPage.tsx')),
      lazyPage('/sign-in', () => import('./account/SignInLinkPage.tsx')),
      {
        element: <RedirectIfLoggedIn />,
        children: [
          lazyPage('/login', () => import('./account/LoginPage.tsx')),
          lazyPage('/register', () => import('./account/RegisterPage.tsx')),
        ],
      },
      {
        element: <RequireLogin />,
        children: [lazyPage('/orders', () => import('./pages/OrdersPage.tsx'))],
      },
      { path: '/payment-success', element: <PaymentSuccessPage /> },
      { path: '/payment-cancel', element: <PaymentCancelPage /> },
      lazyPage('/admin/*', () => import('./admin/AdminPage.tsx')),
      // Any other path: the home page, saying which page was not found.
      { path: '*', element: <NotFoundRedirect /> },
    ],
  },
  // The payment simulator's hosted page stands in for the provider's own site: no shop navigation around it.
  lazyPage(
    '/pay/simulator/:sessionId',
    () => import('./pay/SimulatorPage.tsx'),
    <main id="main">
      <RouteLoading />
    </main>,
  ),
];

export const createRouter = () => createBrowserRouter(routes);
