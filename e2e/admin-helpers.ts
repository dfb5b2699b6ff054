import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { E2E_ADMIN } from './global-setup.ts';
import { CUBE, logIn, modelCard, uploadModels } from './helpers.ts';

// Steps the admin journeys and the admin screenshots share: a customer's paid order, and the admin's login.

export type PaidOrderOptions = {
  /** The name shipped to (the board's customer). */
  name?: string;
  line1?: string;
  notes?: string;
  color?: string;
  strength?: string;
  quantity?: string;
  /** Models to upload first (they must be in `dir`); the first is ordered. Default: the cube. */
  files?: string[];
};

/** The logged-in customer in `page` orders one line and pays on the simulator; returns the order's number. */
export async function paidOrder(page: Page, dir: string, o: PaidOrderOptions = {}): Promise<number> {
  const files = o.files ?? [CUBE];
  await page.goto('/');
  await uploadModels(page, dir, files);
  const card = modelCard(page, files[0]!);
  await card.getByText(o.color ?? 'Blue', { exact: true }).click();
  await card.getByText(o.strength ?? 'Standard', { exact: true }).click();
  await card.getByLabel('Quantity', { exact: true }).fill(o.quantity ?? '1');
  if (o.notes) await card.getByLabel(/^Notes/).fill(o.notes);
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await expect(card.getByText('Added to cart')).toBeVisible();
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await page.getByLabel('Full name').fill(o.name ?? 'Ada Lovelace');
  await page.getByLabel('Address line 1').fill(o.line1 ?? '1 Capitol Square');
  await page.getByLabel('City').fill('Madison');
  await page.getByLabel('State').selectOption('WI');
  await page.getByLabel('ZIP code').fill('53703');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  return Number((await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1]);
}

export const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Logs out whoever is in `page` and logs the CLI-made admin in. */
export async function switchToAdmin(page: Page) {
  await logOut(page);
  await logIn(page, E2E_ADMIN);
}

export async function logOut(page: Page) {
  const logout = mainNav(page).getByRole('button', { name: 'Logout' });
  if (await logout.isVisible()) {
    await logout.click();
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  }
}
