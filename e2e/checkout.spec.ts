import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { CartQuotePayload, CartQuoteRequest, PricedCartLine } from '../src/shared/checkout.ts';
import {
  addLine,
  cartLine,
  cartLines,
  fillPayment,
  money,
  nav,
  quantityOf,
  storedCart,
} from './checkout-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import {
  BLOCK,
  CUBE,
  type Customer,
  logIn,
  mailedLink,
  modelCard,
  newCustomer,
  unique,
  uploadModels,
  writeModels,
} from './helpers.ts';

// Checkout as a customer meets it: the cart priced by the server, the payment simulator's hosted page
// (pay, cancel, a declined card), the success page and My Orders.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The cart quote answered for exactly these quantities, in the cart's order. */
async function cartQuoteFor(page: Page, quantities: number[]): Promise<CartQuotePayload> {
  const res = await page.waitForResponse((r) => {
    if (new URL(r.url()).pathname !== '/api/cart/quote') return false;
    const body = r.request().postDataJSON() as CartQuoteRequest;
    return JSON.stringify(body.items.map((i) => i.quantity)) === JSON.stringify(quantities);
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as CartQuotePayload;
}

const priced = (line: CartQuotePayload['lines'][number] | undefined): PricedCartLine => {
  expect(line).toHaveProperty('lineTotal');
  return line as PricedCartLine;
};

/** One cube in the cart, checked out: the page is on the simulator. Returns the cart as it was stored. */
async function cubeInCartToSimulator(page: Page) {
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  await addLine(modelCard(page, CUBE), { color: 'Blue', strength: 'Standard', quantity: '2' });
  await expect(cartLines(page)).toHaveCount(1);
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  const cart = await storedCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  return cart;
}

test('a new customer fills a cart, pays on the simulator and finds the paid order', async ({
  page,
  shop,
}) => {
  test.setTimeout(150_000);
  const username = unique();
  const customer: Customer = { username, email: `${username}@example.com`, password: 'journey-secret-1' };

  // Register, verify by the mailed link, log in.
  await page.goto('/register');
  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(
    page.getByText('Registration successful! Please check your email for a verification link.'),
  ).toBeVisible();
  await page.goto(await mailedLink(shop, customer.email, `${shop.baseURL}/api/verify-email?token=`));
  await logIn(page, customer);

  // Two models, three lines; the cube's line is added twice and merges.
  await page.goto('/');
  await uploadModels(page, dir, [CUBE, BLOCK]);
  const cube = modelCard(page, CUBE);
  const block = modelCard(page, BLOCK);
  await addLine(cube, { color: 'Blue', strength: 'Standard' });
  await addLine(block, { color: 'Red', strength: 'Solid' });
  await addLine(block, { color: 'Green', strength: 'Light', quantity: '2' });
  await addLine(cube, { color: 'Blue', strength: 'Standard' });
  await expect(cartLines(page)).toHaveCount(3);
  await expect(nav(page).getByTestId('cart-count')).toHaveText('5');
  const cubeLine = cartLine(page, CUBE, 'Standard (3/5)');
  const solidLine = cartLine(page, BLOCK, 'Solid (5/5)');
  const lightLine = cartLine(page, BLOCK, 'Light (2/5)');
  await expect(quantityOf(cubeLine)).toHaveValue('2');

  // Quantities change: the server prices every line again, with its quantity discount.
  const answer = cartQuoteFor(page, [1, 10, 3]);
  await cubeLine.getByRole('button', { name: 'Decrease quantity' }).click();
  await quantityOf(solidLine).fill('10');
  await lightLine.getByRole('button', { name: 'Increase quantity' }).click();
  const quote = await answer;
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  const lines = [cubeLine, solidLine, lightLine];
  for (const [n, line] of lines.entries()) {
    const p = priced(quote.lines[n]);
    await expect(line.getByTestId('line-total')).toHaveText(money(p.lineTotal));
    await expect(line.getByTestId('unit-price')).toHaveText(money(p.unitPrice));
  }
  expect(priced(quote.lines[1]).discountPercent).toBe(5);
  await expect(solidLine.getByTestId('discount')).toHaveText('Includes a 5% quantity discount.');
  await expect(cubeLine.getByTestId('discount')).toHaveCount(0);
  // The items' subtotal, the preselected (first) shipping method, and their sum: what the hosted page starts
  // with (the simulator charges no tax).
  const firstMethod = quote.shipping?.options[0];
  expect(firstMethod?.name).toBe('US Standard');
  const due = (Math.round(quote.total * 100) + (firstMethod?.priceCents ?? 0)) / 100;
  await expect(page.getByTestId('cart-items')).toHaveText(money(quote.total));
  await expect(page.getByTestId('cart-shipping')).toHaveText(
    firstMethod?.priceCents ? money(firstMethod.priceCents / 100) : 'Free',
  );
  await expect(page.getByTestId('cart-total')).toHaveText(money(due));
  expect(
    (await storedCart(page)).map((i) => [i.quantity, i.cost]),
    'the stored cost is the server unit price',
  ).toEqual(quote.lines.map((l, n) => [[1, 10, 3][n], priced(l).unitPrice]));

  // The model card's quote (/api/quote) prices Red Solid x 10 to the cent as the cart does.
  const stored = await storedCart(page);
  const cardQuote = await page.request.post('/api/quote', {
    data: { modelId: stored[1]?.filePath, color: '#dc3545', strength: 5, quantity: 10 },
    headers: { origin: shop.baseURL },
  });
  expect(cardQuote.status()).toBe(200);
  expect(await cardQuote.json()).toMatchObject({
    unitPrice: priced(quote.lines[1]).unitPrice,
    lineTotal: priced(quote.lines[1]).lineTotal,
  });

  // The hosted page: test mode, the shop, the lines, the same subtotal and the same total with shipping.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  await expect(page.locator('.sim-shop')).toHaveText('Badger Print Co.');
  await expect(page.getByTestId('sim-subtotal')).toHaveText(money(quote.total));
  await expect(page.getByTestId('sim-total')).toHaveText(`${money(due)} USD`);
  await expect(page.getByTestId('sim-total-due')).toHaveText(`${money(due)} USD`);
  const simLines = page.getByRole('list', { name: 'Order summary' }).getByRole('listitem');
  await expect(simLines).toHaveCount(3);
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expectAccessible(page);

  // Every field is checked before anything is sent.
  await page.getByRole('button', { name: `Pay ${money(due)}` }).click();
  await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Full name')).toBeFocused();
  await expect(page.getByText('Enter the name of the person we ship to.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Choose a state.')).toBeVisible();
  await expectAccessible(page);

  await fillPayment(page, '4242 4242 4242 4242');
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
  await page.getByRole('button', { name: `Pay ${money(due)}` }).click();

  // Paid: the success page, the order's state, an empty cart.
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(
    page.getByText(
      "Payment Successful! Your order is being processed. You can view it in 'My Orders' shortly.",
    ),
  ).toBeVisible();
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  const orderId = Number((await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1]);
  await expect(nav(page).getByTestId('cart-count')).toHaveText('0');
  expect(await storedCart(page)).toEqual([]);

  // My Orders: the order, paid, with its address, items, previews and total.
  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
  await expect(order.locator('.status-badge')).toHaveText('Paid / Processing');
  await expect(order.getByText(`${money(due)} USD`)).toBeVisible();
  await expect(order.getByTestId('subtotal')).toHaveText(money(quote.total));
  await expect(order.locator('address')).toContainText('Ada Lovelace');
  await expect(order.locator('address')).toContainText('1 Capitol Square');
  await expect(order.locator('address')).toContainText('Madison, WI 53703');
  await expect(order.getByTestId('ship-by')).not.toBeEmpty();
  await expect(order.getByRole('link', { name: 'Complete payment' })).toHaveCount(0);
  const items = order.locator('.order-item');
  await expect(items).toHaveCount(3);
  for (const [n, fileName] of [CUBE, BLOCK, BLOCK].entries()) {
    await expect(items.nth(n).locator('.file-name')).toHaveText(fileName);
    await expect(items.nth(n).locator('.line-total')).toHaveText(money(priced(quote.lines[n]).lineTotal));
    const img = items.nth(n).getByRole('img', { name: `Preview of ${fileName}` });
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
  }
  await expect(items.nth(1)).toContainText('Quantity: 10');
  await expectAccessible(page);
  await expect(items.nth(1).getByRole('button', { name: 'View 3D Model' })).toBeVisible();

  // The confirmation mail names the order.
  await expect
    .poll(
      () =>
        shop
          .mails()
          .some(
            (m) =>
              (m.headers.to ?? '').includes(customer.email) &&
              (m.headers.subject ?? '').includes(`#${orderId}`),
          ),
      { timeout: 15_000, message: `a confirmation mail for order #${orderId}` },
    )
    .toBe(true);
});

test('cancelling on the simulator leaves the cart as it was', async ({ page, shop, request }) => {
  await newCustomer(page, shop, request);
  const before = await cubeInCartToSimulator(page);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/payment-cancel\?order=\d+$/);
  await expect(
    page.getByText(
      'Order Cancelled or Payment Failed. Your cart has not been changed. You can try checking out again.',
    ),
  ).toBeVisible();
  // The order it came back from, as My Orders shows it.
  await expect(page.getByTestId('order-state')).toContainText(/Order #\d+: Pending Payment/);
  await expect(page.getByRole('button', { name: 'Cancel this order' })).toBeVisible();
  expect(await storedCart(page)).toEqual(before);
  await page.getByRole('link', { name: 'View Cart' }).click();
  await expect(cartLines(page)).toHaveCount(1);
  await expect(quantityOf(cartLine(page, CUBE, 'Standard (3/5)'))).toHaveValue('2');
  await expect(nav(page).getByTestId('cart-count')).toHaveText('2');

  // The unpaid order waits on My Orders, with the way back to its payment.
  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const order = page.locator('.order-card').first();
  await expect(order.locator('.status-badge')).toHaveText('Pending Payment');
  await expect(order.getByRole('link', { name: 'Complete payment' })).toHaveAttribute(
    'href',
    /\/pay\/simulator\/cs_sim_/,
  );
  await order.getByRole('link', { name: 'Complete payment' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled();
});

test('a declined card leaves the order pending, and another card pays it', async ({
  page,
  shop,
  request,
}) => {
  await newCustomer(page, shop, request);
  await cubeInCartToSimulator(page);
  const sessionId = new URL(page.url()).pathname.split('/').pop()!;

  await fillPayment(page, '4000 0000 0000 0002');
  const pay = page.getByRole('button', { name: /^Pay \$/ });
  await pay.click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined. Try another card.');
  await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
  await expect(pay).toBeEnabled();
  const status = await page.request.get(`/api/checkout/status?session_id=${sessionId}`);
  expect(status.status()).toBe(200);
  expect(await status.json()).toMatchObject({ status: 'pending' });

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  await expect(nav(page).getByTestId('cart-count')).toHaveText('0');
});
