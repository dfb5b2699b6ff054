import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { apiCheckout, apiCustomer, cartLines, nav, WISCONSIN } from './checkout-helpers.ts';
import { expect, test } from './fixtures.ts';
import { BLOCK, CUBE, modelCard, writeModels } from './helpers.ts';

// Issue #23 §5: a customer who paid once before comes back and pays for a new model in at most 10 pointer
// clicks, from the home page logged out to the paid order on My Orders. Typing, Tab and Enter are not
// clicks; the payment page fills in the last shipping name and address, so only the card is typed.

const MAX_CLICKS = 10;

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a returning customer pays for a new model in at most 10 clicks', async ({ page, shop, playwright }) => {
  test.setTimeout(120_000);
  // Before: an account with one paid order (the cube, shipped to Wisconsin), made through the API.
  const api = await playwright.request.newContext({ baseURL: shop.baseURL });
  const customer = await apiCustomer(shop, api);
  await apiCheckout(shop, api, path.join(dir, CUBE), true);
  await api.dispose();

  // Every pointer press the page receives, in every document of the journey (the simulator's page and the
  // success page are full page loads), and every click this test makes: the two counts must agree.
  const pressed: string[] = [];
  await page.exposeFunction('reportPointerDown', (what: string) => pressed.push(what));
  await page.addInitScript(() => {
    window.addEventListener(
      'pointerdown',
      (e) => {
        if (!e.isTrusted || !(e.target instanceof Element)) return;
        const text = (e.target.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        const report = (window as unknown as { reportPointerDown: (what: string) => void }).reportPointerDown;
        void report(`${e.target.tagName.toLowerCase()} "${text}"`);
      },
      true,
    );
  });
  const clicked: string[] = [];
  const click = async (what: string, target: Locator) => {
    clicked.push(what);
    await target.click();
  };

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/your design/i);

  // Log in: the form is typed, Enter sends it.
  await click('Login', nav(page).getByRole('link', { name: 'Login', exact: true }));
  // The cursor starts in the first field.
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.keyboard.type(customer.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(customer.password);
  await page.keyboard.press('Enter');
  await expect(nav(page).getByRole('button', { name: 'Logout' })).toBeVisible();

  // One new file, through the file chooser.
  const chooser = page.waitForEvent('filechooser');
  await click('Choose files', page.getByText('Choose files', { exact: true }));
  await (await chooser).setFiles(path.join(dir, BLOCK));
  const card = modelCard(page, BLOCK);
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted', { timeout: 30_000 });

  // A color and a strength, into the cart, and to the checkout.
  await click('Red', card.getByText('Red', { exact: true }));
  await click('Solid', card.getByText('Solid', { exact: true }));
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await click('Add to cart', card.getByRole('button', { name: 'Add to cart' }));
  await expect(cartLines(page)).toHaveCount(1);
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await click('Proceed to Checkout', page.getByRole('button', { name: 'Proceed to Checkout' }));

  // The payment page: the last address is there already; the card is typed.
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByLabel('Full name')).toHaveValue(WISCONSIN.name);
  await expect(page.getByLabel('Address line 1')).toHaveValue(WISCONSIN.line1);
  await expect(page.getByLabel('City')).toHaveValue(WISCONSIN.city);
  await expect(page.getByLabel('State')).toHaveValue(WISCONSIN.state);
  await expect(page.getByLabel('ZIP code')).toHaveValue(WISCONSIN.postalCode);
  // The address is there, so the cursor starts in the card number.
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type('4242 4242 4242 4242');
  await page.keyboard.press('Tab');
  await page.keyboard.type('1239');
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
  await expect(page.getByLabel('Expiry (MM / YY)')).toHaveValue('12 / 39');
  await click('Pay', page.getByRole('button', { name: /^Pay \$/ }));

  // Paid: the success page, then My Orders.
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful');
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  const orderId = (await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1];
  await click('View My Orders', page.getByRole('link', { name: 'View My Orders' }));
  const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
  await expect(order.locator('.status-badge')).toHaveText('Paid / Processing');
  await expect(order.locator('.order-item .file-name')).toHaveText([BLOCK]);
  await expect(order.locator('address')).toContainText(`${WISCONSIN.city}, WI ${WISCONSIN.postalCode}`);
  await expect(order.getByText('Test order: no money was taken')).toBeVisible();
  await expect(page.locator('.order-card')).toHaveCount(2);

  test.info().annotations.push({ type: 'clicks', description: `${clicked.length}: ${clicked.join(', ')}` });
  expect(pressed, 'every pointer press the pages saw is one of the clicks above').toHaveLength(
    clicked.length,
  );
  expect(clicked.length, clicked.join(', ')).toBeLessThanOrEqual(MAX_CLICKS);
});
