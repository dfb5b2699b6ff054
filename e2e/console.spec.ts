import fs from 'node:fs';
import path from 'node:path';
import type { ConsoleMessage, Page } from '@playwright/test';
import { switchToAdmin } from './admin-helpers.ts';
import { apiCheckout, apiCustomer } from './checkout-helpers.ts';
import { expect, test } from './fixtures.ts';
import { CUBE, newCustomer, writeModels } from './helpers.ts';

// A clean console: no error and no warning, not even a failed request, on any route, logged out and in,
// at desktop and phone widths (the shared page fixture tolerates 4xx answers; this journey does not).

const ROUTES = [
  '/',
  '/about',
  '/contact',
  '/faq',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/reset-password?token=abc',
  '/orders',
  '/payment-success',
  '/payment-cancel',
  '/admin/',
  '/no-such-page',
];

const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

function listen(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning') seen.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => seen.push(`pageerror: ${err.message}`));
  return seen;
}

/** The pages of the admin panel, each loaded directly (the panel's chunk, its stylesheet, the charts). */
const ADMIN_ROUTES = [
  '/admin/',
  '/admin/orders',
  '/admin/production',
  '/admin/settings',
  '/admin/customers',
  '/admin/messages',
  '/admin/dashboard',
];

async function visitAll(page: Page, seen: string[], routes = ROUTES) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const route of routes) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      expect(seen, `console on ${route} at ${size.width} px`).toEqual([]);
    }
  }
}

test('no console error or warning on any route for a visitor', async ({ page }) => {
  const seen = listen(page);
  await visitAll(page, seen);
});

test('no console error or warning on any route for a logged-in customer', async ({ page, shop, request }) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  const seen = listen(page);
  await visitAll(page, seen);
});

test("no console error or warning on the admin panel's pages", async ({ page }) => {
  test.setTimeout(120_000);
  await switchToAdmin(page);
  const seen = listen(page);
  await visitAll(page, seen, ADMIN_ROUTES);
});

test("no console error or warning on a direct load of the payment simulator's page", async ({
  page,
  shop,
}) => {
  // The checkout is made through the API in the page's own context, so the page is the customer's.
  await apiCustomer(shop, page.request);
  const dir = writeModels();
  const { sessionId } = await apiCheckout(shop, page.request, path.join(dir, CUBE), false);
  fs.rmSync(dir, { recursive: true, force: true });
  const seen = listen(page);
  await visitAll(page, seen, [`/pay/simulator/${sessionId}`]);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeVisible();
});
