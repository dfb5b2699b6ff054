import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { box, toBinaryStl, triangles } from '../src/mesh/testing/generate.ts';
import { apiCustomer } from './checkout-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { BLOCK, CUBE, modelCard, uploadModels, writeModels } from './helpers.ts';

// A customer with many saved models gets a compact list, newest first, one row each: a row opens in place
// as the full card, a fresh upload shows as the full card, and the cart stays one tap away on a phone.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const SAVED = 15;
const partName = (n: number) => `part-${String(n).padStart(2, '0')}.stl`;

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The account's models, stored through the upload endpoint one after the other (oldest first). */
async function storeModels(page: Page, origin: string) {
  for (let n = 1; n <= SAVED; n++) {
    const res = await page.request.post('/api/uploads', {
      headers: { origin },
      multipart: {
        // A different size each: the shop keeps one model per content.
        file: {
          name: partName(n),
          mimeType: 'model/stl',
          buffer: Buffer.from(toBinaryStl(triangles(box(10 + n, 20, 8)))),
        },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

const rows = (page: Page) => page.locator('#upload .saved-list > li');
const rowNames = (page: Page) => rows(page).locator('.saved-name');
const row = (page: Page, fileName: string) =>
  page.getByRole('button', { name: `Edit ${fileName}`, exact: true });
const openCards = (page: Page) => page.locator('#upload').getByRole('article');

test('15 saved models are a compact list, newest first, that opens in place; the cart is one tap away', async ({
  page,
  shop,
}) => {
  test.setTimeout(120_000);
  // Logged in on this page's own cookies: the account's models follow it to this phone.
  await apiCustomer(shop, page.request);
  await storeModels(page, shop.baseURL);
  await page.goto('/');

  // One row per model, newest first, none open.
  const newestFirst = Array.from({ length: SAVED }, (_, i) => partName(SAVED - i));
  await expect(rowNames(page)).toHaveText(newestFirst, { timeout: 30_000 });
  await expect(openCards(page)).toHaveCount(0);
  await expect(page.locator('#upload .saved-row[aria-expanded=false]')).toHaveCount(SAVED);
  const first = rows(page).first();
  await expect(first).toContainText('25.0 x 20.0 x 8.0 mm');
  await expect(first).toContainText('Blue · Standard');
  await expect(first.locator('.saved-price')).toHaveText(/^\$\d+\.\d{2}$/);
  for (const li of await rows(page).all()) {
    expect((await li.boundingBox())!.height, 'a compact row').toBeLessThan(100);
  }

  // A row opens in place as the full card with its controls (by keyboard here: the focus stays on it).
  const seven = row(page, partName(7));
  await seven.focus();
  await page.keyboard.press('Enter');
  const toggle = page.getByRole('button', { name: `Close ${partName(7)}`, exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toBeFocused();
  const card = modelCard(page, partName(7));
  await expect(page.locator(`#${await toggle.getAttribute('aria-controls')}`)).toContainText(partName(7));
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted', { timeout: 30_000 });
  for (const name of ['Red', /^Solid/]) await expect(card.getByRole('radio', { name })).toHaveCount(1);
  await expect(card.getByLabel('Quantity', { exact: true })).toBeVisible();
  await expect(card.getByLabel(/^Notes/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'View 3D' })).toBeVisible();
  await expect(card.getByRole('button', { name: `Remove ${partName(7)}` })).toBeVisible();
  await expect(openCards(page)).toHaveCount(1);
  await expectAccessible(page);
  await card.getByText('Red', { exact: true }).click();
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await expect(card.getByText('Added to cart')).toBeVisible();
  // Closed again, its row says what was picked.
  await toggle.click();
  await expect(openCards(page)).toHaveCount(0);
  await expect(rows(page).nth(SAVED - 7)).toContainText('Red · Standard');

  // On a fresh visit the cart is in reach at once, in the first screen, above all the models...
  await page.reload();
  await expect(rowNames(page)).toHaveCount(SAVED, { timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const jump = page.locator('.cart-jump').getByRole('link', { name: 'View cart (1)' });
  await expect(jump).toBeInViewport();
  // ...and the list is short: past the first row, the cart starts within two screens.
  const top = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect((await top('#cart-section')) - (await top('#upload .saved-list > li'))).toBeLessThan(2 * 844);
  await jump.click();
  await expect(page).toHaveURL(/#cart-section$/);
  await expect(page.getByRole('heading', { name: 'Your cart' })).toBeInViewport();
  await expect(page.locator('#cart-section li.cart-item')).toHaveCount(1);

  // A fresh upload shows as the full card, at the top; the next one takes its place as the open card.
  await uploadModels(page, dir, [CUBE]);
  await expect(rowNames(page).first()).toHaveText(CUBE);
  await expect(openCards(page)).toHaveCount(1);
  await expect(modelCard(page, CUBE).getByRole('button', { name: 'Add to cart' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Close ${CUBE}`, exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, BLOCK));
  await expect(modelCard(page, BLOCK).locator('.price-box')).toHaveAttribute('data-state', 'quoted', {
    timeout: 30_000,
  });
  await expect(rowNames(page)).toHaveText([BLOCK, CUBE, ...newestFirst]);
  await expect(openCards(page)).toHaveCount(1);
  await expect(row(page, CUBE)).toHaveAttribute('aria-expanded', 'false');
});
