import fs from 'node:fs';
import { expect, test } from './fixtures.ts';
import { BLOCK, CUBE, logIn, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// Models and cart follow the account: a cart started on the phone is there on the desktop after login,
// merged with what the desktop's visitor had added, and the phone sees the merged cart on its next visit.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a cart started on a phone is found on the desktop after login, and merged', async ({
  browser,
  page: phone,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(phone, shop, request);
  // A phone's width from here on (the login helper looks for the desktop's navigation).
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto('/');
  await uploadModels(phone, dir, [CUBE]);
  const phoneCard = modelCard(phone, CUBE);
  await phoneCard.getByLabel('Quantity', { exact: true }).fill('2');
  await expect(phoneCard.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await phoneCard.getByRole('button', { name: 'Add to cart' }).click();
  await expect(phone.locator('#cart-section li.cart-item')).toHaveCount(1);

  // The desktop: a visitor adds the block, then logs in.
  const desktopContext = await browser.newContext({
    baseURL: shop.baseURL,
    viewport: { width: 1366, height: 900 },
  });
  const desktop = await desktopContext.newPage();
  const errors: string[] = [];
  desktop.on('pageerror', (err) => errors.push(err.message));
  await desktop.goto('/');
  await uploadModels(desktop, dir, [BLOCK]);
  await modelCard(desktop, BLOCK).getByRole('button', { name: 'Add to cart' }).click();
  await logIn(desktop, customer);
  await desktop.goto('/');

  // Both lines, the phone's with its quantity; and the phone's model among the desktop's cards.
  const lines = desktop.locator('#cart-section li.cart-item');
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: CUBE }).getByLabel('Quantity', { exact: true })).toHaveValue('2');
  await expect(lines.filter({ hasText: BLOCK })).toHaveCount(1);
  // The phone's model is a row of the saved list; it opens as its card.
  await desktop.getByRole('button', { name: `Edit ${CUBE}`, exact: true }).click();
  await expect(modelCard(desktop, CUBE).locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await expect(modelCard(desktop, BLOCK)).toHaveCount(1);
  await desktop.screenshot({ path: test.info().outputPath('desktop-after-login.png'), fullPage: true });

  // A change on the desktop reaches the phone on its next visit.
  await lines.filter({ hasText: BLOCK }).getByLabel('Quantity', { exact: true }).fill('3');
  await expect
    .poll(async () => {
      const res = await desktop.request.get('/api/cart');
      const items = ((await res.json()) as { items: Array<{ fileName: string; quantity: number }> }).items;
      return items.map((i) => `${i.fileName}:${i.quantity}`).sort();
    })
    .toEqual([`${BLOCK}:3`, `${CUBE}:2`]);
  await phone.reload();
  const phoneLines = phone.locator('#cart-section li.cart-item');
  await expect(phoneLines).toHaveCount(2);
  await expect(phoneLines.filter({ hasText: BLOCK }).getByLabel('Quantity', { exact: true })).toHaveValue(
    '3',
  );
  await expect(phone.getByRole('button', { name: `Edit ${BLOCK}`, exact: true })).toHaveCount(1);
  await phone.screenshot({ path: test.info().outputPath('phone-after-sync.png'), fullPage: true });

  // Logging out on the desktop empties its cart but not the account's: the phone still has it.
  await desktop.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await expect(desktop.locator('#cart-section li.cart-item')).toHaveCount(0);
  await phone.reload();
  await expect(phone.locator('#cart-section li.cart-item')).toHaveCount(2);
  expect(errors).toEqual([]);
  await desktopContext.close();
});
