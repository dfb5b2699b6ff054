import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { newCustomer } from './helpers.ts';

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

async function visitAll(page: Page, seen: string[]) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const route of ROUTES) {
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
