import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { mainNav } from './admin-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { E2E_ADMIN } from './global-setup.ts';
import { CUBE, logIn, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// The back office's customers (issue #25, "Done when"): an admin finds a customer, disables the account and
// the customer's open session ends (their browser is logged out on its next request, the login says why,
// their open checkout is cancelled); enabled again, the customer logs in. With E2E_SHOTS_DIR set, the list
// and the customer's page are also photographed at desktop (1280) and tablet (820) widths.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const SHOTS = process.env.E2E_SHOTS_DIR;
const WIDTHS = [
  ['1280', { width: 1280, height: 900 }],
  ['820', { width: 820, height: 1180 }],
] as const;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const [label, viewport] of WIDTHS) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** The logged-in customer in `page` starts a checkout (a pending order) and leaves it open. */
async function openCheckout(page: Page): Promise<void> {
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  const card = modelCard(page, CUBE);
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
}

test('an admin disables a customer: their open session ends at once, and enabling lets them back in', async ({
  page,
  shop,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  // The customer, in a browser of their own, with an open checkout, then on My Orders.
  const theirs = await browser.newContext({ baseURL: shop.baseURL });
  const customerPage = await theirs.newPage();
  const customer = await newCustomer(customerPage, shop, request);
  await openCheckout(customerPage);
  await customerPage.goto('/orders');
  await expect(customerPage.getByText('Pending Payment').first()).toBeVisible();

  // The admin finds them in the list.
  await logIn(page, E2E_ADMIN);
  await mainNav(page).getByRole('link', { name: 'Admin Panel' }).click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Customers');
  await page.getByLabel('Search').fill(customer.username.toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers\\?q=${customer.username.toUpperCase()}$`));
  const row = page.locator('tr[data-customer-id]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(customer.email);
  await expect(row).toContainText('Verified');
  await expectAccessible(page);

  // Their page: the facts, the open checkout, the actions.
  await row.getByRole('link', { name: customer.username }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(customer.username);
  const orders = page.getByRole('region', { name: 'Orders' });
  const pendingRow = orders.locator('tr[data-order-id]').first();
  await expect(pendingRow).toContainText('Pending Payment');
  const account = page.getByRole('region', { name: 'Account', exact: true });
  await expect(account).toContainText('1 session');
  await expectAccessible(page);

  // Disable, after the confirmation that says what follows.
  const actions = page.getByRole('region', { name: 'Actions' });
  await actions.getByRole('button', { name: 'Disable account…' }).click();
  const confirm = actions.getByRole('group', { name: `Disable ${customer.username}'s account?` });
  await expect(confirm).toContainText('Their 1 session ends at once');
  await expect(confirm).toContainText('their 1 open checkout is cancelled');
  await expectAccessible(page);
  await shots(page, 'customer-confirm');
  await confirm.getByRole('button', { name: 'Disable the account' }).click();
  await expect(actions.getByRole('status')).toContainText(
    `${customer.username}'s account is disabled: 1 session ended; open checkout cancelled: #`,
  );
  await expect(page.locator('.customer-markers')).toContainText('Disabled');
  await expect(pendingRow).toContainText('Cancelled');
  const history = page.getByRole('region', { name: 'Account history' });
  await expect(history).toContainText('Account disabled');
  await expect(history).toContainText(E2E_ADMIN.username);
  await expect(actions.getByRole('button', { name: 'Enable account' })).toBeVisible();
  await expectAccessible(page);
  await shots(page, 'customer');

  // The customer's browser is logged out on its next request, and the login says why.
  await customerPage.reload();
  await expect(customerPage).toHaveURL(/\/login/);
  const theirNav = customerPage.getByRole('navigation', { name: 'Main' });
  await expect(theirNav.getByRole('link', { name: 'Login' })).toBeVisible();
  await customerPage.getByLabel('Username').fill(customer.username);
  await customerPage.getByLabel('Password').fill(customer.password);
  await customerPage.getByRole('button', { name: 'Log in' }).click();
  await expect(customerPage.getByRole('alert')).toHaveText('This account is disabled. Please contact us.');

  // The list says so too.
  await page.getByRole('link', { name: '← Back to the customers' }).click();
  await expect(row).toContainText('Disabled');
  await expectAccessible(page);
  await shots(page, 'customers');
  await row.getByRole('link', { name: customer.username }).click();

  // Enabled again, they log in.
  await actions.getByRole('button', { name: 'Enable account' }).click();
  await expect(actions.getByRole('status')).toContainText('is enabled: they can log in again.');
  await expect(history.locator('li').first()).toContainText('Account enabled');
  await logIn(customerPage, customer);
  await theirs.close();
  await page.goto('/admin/customers');
  await expect(page.locator('tr[data-customer-id]').first()).toBeVisible();
  await shots(page, 'customers-all');
});

test("an admin's own account offers neither revoking nor disabling, and the server refuses both", async ({
  page,
  shop,
}) => {
  await logIn(page, E2E_ADMIN);
  await page.goto(`/admin/customers?q=${E2E_ADMIN.username}`);
  await page.locator('tr[data-customer-id]').getByRole('link', { name: E2E_ADMIN.username }).click();
  await expect(page.locator('.customer-markers')).toContainText('You');
  const actions = page.getByRole('region', { name: 'Actions' });
  await expect(actions.getByRole('button', { name: /Revoke admin|Disable account/ })).toHaveCount(0);
  await expect(actions).toContainText('Your own account cannot be disabled from here.');
  const id = page.url().split('/').pop();
  for (const [action, error] of [
    ['admin', /last admin who can log in|cannot revoke your own admin access/],
    ['disable', /You cannot disable your own account\./],
  ] as const) {
    const res = await page.request.post(`/api/admin/customers/${id}/${action}`, {
      data: { value: action === 'disable' },
      headers: { origin: shop.baseURL },
    });
    expect(res.status(), action).toBe(409);
    expect((await res.json()).error, action).toMatch(error);
  }
});
