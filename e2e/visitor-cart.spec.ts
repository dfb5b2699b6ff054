import fs from 'node:fs';
import { expect, test } from './fixtures.ts';
import { CUBE, mailedLink, modelCard, unique, uploadModels, writeModels } from './helpers.ts';

// A visitor's cart is reachable: "View cart" lands on a notice that says where the cart is and how to
// check out; logging in from it comes back to the cart. Prices over $999 read with thousands separators.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a visitor's cart waits for them through logging in, and big totals read like money", async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  const card = modelCard(page, CUBE);
  await card.getByLabel('Quantity', { exact: true }).fill('2');
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await card.getByRole('link', { name: 'View cart' }).click();
  const section = page.locator('#cart-section');
  await expect(section).toBeInViewport();
  await expect(section).toContainText('Your cart holds 2 items, kept in this browser.');
  await expect(section.getByRole('button', { name: 'Proceed to Checkout' })).toHaveCount(0);

  // An account, verified by its mail; then "Log in to check out" comes back to the cart.
  const username = unique();
  const customer = { username, email: `${username}@example.com`, password: 'journey-secret-1' };
  expect(
    (await request.post('/api/register.php', { data: customer, headers: { origin: shop.baseURL } })).status(),
  ).toBe(201);
  const link = await mailedLink(shop, customer.email, `${shop.baseURL}/api/verify-email?token=`);
  expect((await request.get(link, { maxRedirects: 0 })).status()).toBe(302);
  await section.getByRole('link', { name: 'Log in to check out' }).click();
  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/#cart-section$/);
  const line = section.locator('li.cart-item').filter({ hasText: CUBE });
  await expect(line).toHaveCount(1);

  // 100 cubes at the $12.00 minimum: no discount takes a piece below it, so $1,200.00, with its separator, in
  // the line and the total.
  await line.getByLabel('Quantity', { exact: true }).fill('100');
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expect(line.getByTestId('line-total')).toHaveText('$1,200.00');
  await expect(page.locator('.cart-summary')).toContainText('$1,200.00');
});
