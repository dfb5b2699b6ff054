import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  accountLines,
  addLine,
  apiCheckout,
  apiCustomer,
  cartLines,
  fillPayment,
  modelInCartToSimulator,
  nav,
  quantityOf,
  storedLines,
} from './checkout-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { BLOCK, CUBE, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// Issue #23 §2: the pages after the hosted checkout tell the truth about money. The success page claims
// only this customer's paid order and takes exactly its lines out of the cart; the cancel page and My Orders
// agree on an order's state, and a pending order can be cancelled; a checkout refused because the session
// ended sends the customer to log in and back to the cart.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const NOT_FOUND = 'We could not find a completed payment.';

test("/payment-success claims nothing without a session id, for another customer's or an unpaid one", async ({
  page,
  shop,
  request,
  playwright,
}) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  // An unpaid checkout of this customer's: the cube stays in the cart.
  const unpaid = await modelInCartToSimulator(page, dir, CUBE);
  // Another customer's paid checkout.
  const other = await playwright.request.newContext({ baseURL: shop.baseURL });
  await apiCustomer(shop, other);
  const { sessionId: foreign } = await apiCheckout(shop, other, path.join(dir, BLOCK), true);
  await other.dispose();

  await page.goto('/');
  await expect(cartLines(page)).toHaveCount(1);
  await expect.poll(() => accountLines(page)).toEqual([`${CUBE}:3:2`]);
  const before = await storedLines(page);
  expect(before).toEqual([`${CUBE}:3:2`]);
  const cartAsItWas = async () => {
    await page.waitForLoadState('networkidle');
    expect(await storedLines(page)).toEqual(before);
    expect(await accountLines(page)).toEqual(before);
  };

  await page.goto('/payment-success');
  await expect(heading(page)).toHaveText('No completed payment');
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
  await expect(page).toHaveTitle(/^No completed payment/);
  await expect(page.getByRole('link', { name: 'View My Orders' })).toHaveAttribute('href', '/orders');
  await expectAccessible(page);
  await cartAsItWas();

  await page.goto(`/payment-success?session_id=${foreign}`);
  await expect(heading(page)).toHaveText('No completed payment');
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
  await expect(page.getByText(/Payment Successful/)).toHaveCount(0);
  await expect(page.getByTestId('order-state')).toHaveCount(0);
  await cartAsItWas();

  // Unpaid: the page asks a while (its clock sped up here), then says the payment is still being confirmed.
  await page.clock.install();
  await page.goto(`/payment-success?session_id=${unpaid}`);
  await expect(heading(page)).toHaveText('Checking your payment…');
  await expect(page.getByTestId('order-state')).toContainText('Pending Payment');
  await expect(page).toHaveTitle(/^Checking your payment…/);
  await expect
    .poll(
      async () => {
        await page.clock.fastForward(2000);
        return heading(page).textContent();
      },
      { timeout: 40_000 },
    )
    .toBe('No completed payment');
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
  await expect(page.getByTestId('order-state')).toContainText(/Order #\d+: Pending Payment/);
  await expect(page.getByText(/Your payment is still being confirmed/)).toBeVisible();
  await expect(page.getByText(/Payment Successful/)).toHaveCount(0);
  await cartAsItWas();
});

test('paying an order takes exactly its lines out of the cart: a line added after checking out stays', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  await modelInCartToSimulator(page, dir, CUBE);

  // Meanwhile, in another tab, the customer adds another line.
  const other = await page.context().newPage();
  await other.goto('/');
  await uploadModels(other, dir, [BLOCK]);
  await addLine(modelCard(other, BLOCK), { color: 'Red', strength: 'Solid' });
  await expect(cartLines(other)).toHaveCount(2);
  await expect.poll(() => accountLines(other)).toEqual([`${CUBE}:3:2`, `${BLOCK}:5:1`]);
  await other.close();

  await fillPayment(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(heading(page)).toHaveText('Payment Successful');
  await expect(page).toHaveTitle(/^Payment Successful/);
  await expect(page.getByText('Test order: no money was taken.')).toBeVisible();
  await expect.poll(() => storedLines(page)).toEqual([`${BLOCK}:5:1`]);
  await expect(nav(page).getByTestId('cart-count')).toHaveText('1');
  await expect.poll(() => accountLines(page)).toEqual([`${BLOCK}:5:1`]);
  await expectAccessible(page);

  // A reload of the success page takes nothing more.
  await page.reload();
  await expect(heading(page)).toHaveText('Payment Successful');
  await page.waitForLoadState('networkidle');
  expect(await storedLines(page)).toEqual([`${BLOCK}:5:1`]);

  await page.goto('/#cart-section');
  await expect(cartLines(page)).toHaveCount(1);
  await expect(cartLines(page).filter({ hasText: BLOCK })).toHaveCount(1);
});

test('a pending order is cancelled from My Orders, the cancel page agrees, and the cart stays', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  await modelInCartToSimulator(page, dir, CUBE);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/payment-cancel\?order=\d+$/);
  const orderId = new URL(page.url()).searchParams.get('order');
  const state = page.getByTestId('order-state');
  await expect(state).toContainText(`Order #${orderId}: Pending Payment`);
  await expect(state.getByRole('link', { name: 'Complete payment' })).toHaveAttribute(
    'href',
    /\/pay\/simulator\/cs_sim_/,
  );
  await expect(state.getByRole('button', { name: 'Cancel this order' })).toBeVisible();
  await expectAccessible(page);
  const before = await storedLines(page);
  expect(before).toEqual([`${CUBE}:3:2`]);

  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
  await expect(order.locator('.status-badge')).toHaveText('Pending Payment');
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await order.getByRole('button', { name: 'Cancel order' }).click();
  await expect(order.locator('.status-badge')).toHaveText('Cancelled');
  expect(asked).toContain(`Cancel order #${orderId}?`);
  await expect(order.getByText(`Order #${orderId} is cancelled.`)).toBeVisible();
  await expect(order.getByRole('link', { name: 'Complete payment' })).toHaveCount(0);
  await expect(order.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expectAccessible(page);

  // The cancel page and My Orders, read again, agree; the cart is as it was.
  await page.goto(`/payment-cancel?order=${orderId}`);
  await expect(state).toHaveText(`Order #${orderId}: Cancelled`);
  await page.goto('/orders');
  await expect(order.locator('.status-badge')).toHaveText('Cancelled');
  expect(await storedLines(page)).toEqual(before);
  expect(await accountLines(page)).toEqual(before);
});

test('a checkout refused because the session ended goes to log in and back to the cart, kept', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(page, shop, request);
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  await addLine(modelCard(page, CUBE), { color: 'Blue', strength: 'Standard', quantity: '2' });
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expect.poll(() => accountLines(page)).toEqual([`${CUBE}:3:2`]);

  // The session ends on the server's side (here: its cookie is gone).
  await page.context().clearCookies();
  let alerted = '';
  page.once('dialog', (dialog) => {
    alerted = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(alerted).toBe('Please log in to proceed to checkout.');
  await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  expect(await storedLines(page)).toEqual([`${CUBE}:3:2`]);

  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/#cart-section$/);
  await expect(cartLines(page)).toHaveCount(1);
  await expect(quantityOf(cartLines(page).first())).toHaveValue('2');
  await expect(page.locator('#cart-section')).toBeInViewport();
  expect(await accountLines(page)).toEqual([`${CUBE}:3:2`]);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
});

test('a customer logged out on the success page is offered a login that comes back to it', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(90_000);
  const customer = await newCustomer(page, shop, request);
  const sessionId = await modelInCartToSimulator(page, dir, CUBE);
  await page.goto('/');
  await nav(page).getByRole('button', { name: 'Logout' }).click();
  await expect(nav(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();

  await page.goto(`/payment-success?session_id=${sessionId}`);
  await expect(heading(page)).toHaveText('Log in to see your payment');
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment-success\\?session_id=${sessionId}$`));
  await expect(heading(page)).toHaveText('Checking your payment…');
  await expect(page.getByTestId('order-state')).toContainText('Pending Payment');
});
