import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { CartQuotePayload, CartQuoteRequest } from '../src/shared/checkout.ts';
import { deliveryWords, type ShipTo } from '../src/shared/shipping.ts';
import { addLine, cartLine, cartLines, fillPayment, money, nav, quantityOf } from './checkout-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { CUBE, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// Shipping as a customer meets it (issue #24): the cart's 'Ship to' and the methods with their prices and
// dates, the simulator offering only that country's methods, the paid order's total with the chosen
// shipping, My Orders' method, ship-by and arrival, and 'Order again' refilling the cart.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

type Offers = NonNullable<CartQuotePayload['shipping']>;

/** The next cart quote answered for this country (`null`: asked without one, the server's default). */
async function quoteFor(page: Page, shipTo: ShipTo | null): Promise<CartQuotePayload> {
  const res = await page.waitForResponse((r) => {
    if (new URL(r.url()).pathname !== '/api/cart/quote') return false;
    const body = r.request().postDataJSON() as CartQuoteRequest;
    return (body.shipTo ?? null) === shipTo;
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as CartQuotePayload;
}

const cents = (dollars: number) => Math.round(dollars * 100);
const dollars = (c: number) => money(c / 100);

/** A 'Ship by Tue, Dec 1'-style day, and an arrival window 'Dec 3-7' or 'Nov 30-Dec 2'. */
const SHIP_DAY = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [A-Z][a-z]{2} \d{1,2}$/;
const DAY_RANGE = /^[A-Z][a-z]{2} \d{1,2}(-([A-Z][a-z]{2} )?\d{1,2})?$/;

/**
 * The cart's shipping block shows exactly these offers (names, prices, transit days, arrival windows), the
 * first method's dates in words, and the totals: items, the first method's shipping, their sum.
 */
async function expectCartShipping(
  page: Page,
  quote: CartQuotePayload,
  country: string,
  methods: { name: string; price: string; transit: string }[],
) {
  const shipping = quote.shipping as Offers;
  expect(shipping.options.map((o) => o.name)).toEqual(methods.map((m) => m.name));
  const list = page.getByRole('list', { name: `Shipping to ${country}` });
  const offers = list.getByTestId('ship-method');
  await expect(offers).toHaveCount(methods.length);
  for (const [n, m] of methods.entries()) {
    const offer = offers.nth(n);
    await expect(offer.locator('.ship-method-name')).toHaveText(m.name);
    await expect(offer.locator('.ship-method-price')).toHaveText(m.price);
    await expect(offer.locator('.ship-method-dates')).toHaveText(
      new RegExp(`^${m.transit} business days in transit · arrives [A-Z][a-z]{2} \\d`),
    );
  }
  const first = shipping.options[0]!;
  await expect(page.getByTestId('delivery')).toHaveText(deliveryWords(first));
  await expect(page.getByTestId('delivery')).toHaveText(
    new RegExp(`^Order today, ships by \\w{3}, \\w{3} \\d{1,2}; arrives .+ with ${first.name}$`),
  );
  const summary = page.locator('.cart-summary');
  await expect(summary.locator('.cart-totals dt').nth(1)).toHaveText(`Shipping (${first.name})`);
  await expect(page.getByTestId('cart-items')).toHaveText(money(quote.total));
  await expect(page.getByTestId('cart-shipping')).toHaveText(methods[0]!.price);
  await expect(page.getByTestId('cart-total')).toHaveText(dollars(cents(quote.total) + first.priceCents));
}

const shippingGroup = (page: Page) => page.getByRole('group', { name: 'Shipping method' });
const simRadios = (page: Page) => shippingGroup(page).getByRole('radio');

/** The simulator's summary: the subtotal, the chosen method's price and the total due (items + shipping). */
async function expectSimTotals(page: Page, itemsCents: number, method: string, shippingCents: number) {
  const due = dollars(itemsCents + shippingCents);
  await expect(page.getByTestId('sim-subtotal')).toHaveText(dollars(itemsCents));
  await expect(page.locator('.sim-totals')).toContainText(`Shipping ${method}`);
  await expect(page.getByTestId('sim-shipping')).toHaveText(dollars(shippingCents));
  await expect(page.getByTestId('sim-total-due')).toHaveText(`${due} USD`);
  await expect(page.getByTestId('sim-total')).toHaveText(`${due} USD`);
  await expect(page.getByRole('button', { name: `Pay ${due}` })).toBeEnabled();
}

/** The paid order on My Orders: its money in parts, its method and its dates. */
async function expectPaidOrder(order: Locator, itemsCents: number, method: string, shippingCents: number) {
  await expect(order.locator('.status-badge')).toHaveText('Paid / Processing');
  await expect(order.getByTestId('subtotal')).toHaveText(dollars(itemsCents));
  await expect(order.locator('.order-facts dt', { hasText: /^Shipping/ })).toHaveText(`Shipping (${method})`);
  await expect(order.getByTestId('shipping')).toHaveText(dollars(shippingCents));
  const total = order
    .locator('.order-facts > div')
    .filter({ has: order.page().locator('dt', { hasText: /^Total$/ }) });
  await expect(total.locator('dd')).toHaveText(`${dollars(itemsCents + shippingCents)} USD`);
  await expect(order.locator('.order-facts dt', { hasText: 'Ships by' })).toBeVisible();
  await expect(order.getByTestId('ship-by')).toHaveText(SHIP_DAY);
  await expect(order.locator('.order-facts dt', { hasText: 'Arrives' })).toBeVisible();
  await expect(order.getByTestId('arrives')).toHaveText(DAY_RANGE);
}

/** The order number the success page names. */
async function paidOrderId(page: Page): Promise<number> {
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  return Number((await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1]);
}

test('shipped to Canada: the Canadian methods in the cart and on the simulator, the paid shipping on My Orders, and Order again', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(150_000);
  await newCustomer(page, shop, request);

  // A new customer's cart ships to the United States: both US methods, their prices and dates.
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  const usQuote = quoteFor(page, null);
  await addLine(modelCard(page, CUBE), { color: 'Blue', strength: 'Standard', quantity: '2' });
  const us = await usQuote;
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  const shipTo = page.getByLabel('Ship to');
  await expect(shipTo).toHaveValue('US');
  await expect(shipTo.locator('option')).toHaveText(['United States', 'Canada']);
  const itemsCents = cents(us.total);
  expect(itemsCents, 'the cube x2 is below the free-shipping thresholds').toBeLessThan(7500);
  await expectCartShipping(page, us, 'United States', [
    { name: 'US Standard', price: '$6.95', transit: '3-5' },
    { name: 'US Expedited', price: '$19.95', transit: '1-2' },
  ]);
  await expect(page.getByTestId('ship-method').first().locator('.ship-method-free')).toHaveText(
    `Free US Standard from $75.00 — add ${dollars(7500 - itemsCents)} more`,
  );
  await expect(page.getByText('You choose the shipping method on the payment page.')).toBeVisible();
  await expectAccessible(page);

  // Canada: its two methods, and the totals follow the first.
  const caQuote = quoteFor(page, 'CA');
  await shipTo.selectOption({ label: 'Canada' });
  const ca = await caQuote;
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  expect(cents(ca.total)).toBe(itemsCents);
  const canadian = [
    { name: 'Canada Standard', price: '$14.95', transit: '5-8' },
    { name: 'Canada Expedited', price: '$34.95', transit: '2-4' },
  ];
  await expectCartShipping(page, ca, 'Canada', canadian);
  await expect(page.getByRole('list', { name: 'Shipping to United States' })).toHaveCount(0);

  // The choice survives a reload.
  const again = quoteFor(page, 'CA');
  await page.reload();
  await expectCartShipping(page, await again, 'Canada', canadian);
  await expect(page.getByLabel('Ship to')).toHaveValue('CA');

  // The simulator offers only the Canadian methods, the first chosen, and the country is Canada only.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  await expect(simRadios(page)).toHaveCount(2);
  const caStandard = shippingGroup(page).getByRole('radio', { name: /^Canada Standard / });
  const caExpedited = shippingGroup(page).getByRole('radio', { name: /^Canada Expedited / });
  await expect(caStandard).toBeChecked();
  await expect(shippingGroup(page).locator('.sim-ship-option')).toHaveText([
    /^Canada Standard Arrives in \d+(–\d+)? business days \$14\.95$/,
    /^Canada Expedited Arrives in \d+(–\d+)? business days \$34\.95$/,
  ]);
  await expect(shippingGroup(page)).not.toContainText('US ');
  const country = page.getByLabel('Country');
  await expect(country).toHaveValue('CA');
  await expect(country.locator('option')).toHaveText(['Canada']);
  await expect(page.getByLabel('Province or territory')).toBeVisible();
  await expect(page.getByLabel('Postal code')).toBeVisible();
  await expectSimTotals(page, itemsCents, 'Canada Standard', 1495);
  await expectAccessible(page);

  // Canada Expedited: the total due follows.
  await caExpedited.check();
  await expect(caExpedited).toBeChecked();
  await expectSimTotals(page, itemsCents, 'Canada Expedited', 3495);

  // Paid with a Canadian address.
  await page.getByLabel('Full name').fill('Lester Pearson');
  await page.getByLabel('Address line 1').fill('24 Sussex Dr');
  await page.getByLabel('City').fill('Ottawa');
  await page.getByLabel('Province or territory').selectOption('ON');
  await page.getByLabel('Postal code').fill('K1M 1M4');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: `Pay ${dollars(itemsCents + 3495)}` }).click();
  const orderId = await paidOrderId(page);
  await expect(nav(page).getByTestId('cart-count')).toHaveText('0');

  // My Orders: the total is the items and Canada Expedited; the method, ship-by and arrival.
  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
  await expectPaidOrder(order, itemsCents, 'Canada Expedited', 3495);
  await expect(order.locator('address')).toContainText('24 Sussex Dr');
  await expect(order.locator('address')).toContainText('Ottawa, ON K1M 1M4');
  await expect(order.locator('address')).toContainText('Canada');

  // Order again: the cube x2 is back in the cart, at today's prices.
  await order.getByRole('button', { name: 'Order again' }).click();
  const notice = order.locator('.order-again .alert');
  await expect(notice).toContainText("2 items are back in your cart at today's prices.");
  await expect(nav(page).getByTestId('cart-count')).toHaveText('2');
  await expectAccessible(page);
  await notice.getByRole('link', { name: 'View cart' }).click();
  await expect(cartLines(page)).toHaveCount(1);
  await expect(quantityOf(cartLine(page, CUBE, 'Standard (3/5)'))).toHaveValue('2');
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expect(page.getByTestId('cart-items')).toHaveText(dollars(itemsCents));
  await expect(page.getByLabel('Ship to')).toHaveValue('CA');

  // Without this browser's own choice, the account's last order's country is the default.
  await page.evaluate(() => localStorage.removeItem('printShipTo'));
  const byAccount = quoteFor(page, null);
  await page.reload();
  expect((await byAccount).shipping?.shipTo).toBe('CA');
  await expect(page.getByLabel('Ship to')).toHaveValue('CA');
  await expect(page.getByRole('list', { name: 'Shipping to Canada' })).toBeVisible();
});

test('shipped to the United States: the simulator offers the US methods, and the order keeps the chosen one', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  const quote = quoteFor(page, null);
  await addLine(modelCard(page, CUBE), { color: 'Blue', strength: 'Standard', quantity: '2' });
  const itemsCents = cents((await quote).total);
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expect(page.getByLabel('Ship to')).toHaveValue('US');
  await expect(page.getByTestId('cart-total')).toHaveText(dollars(itemsCents + 695));

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(shippingGroup(page).locator('.sim-ship-option')).toHaveText([
    /^US Standard Arrives in \d+(–\d+)? business days \$6\.95$/,
    /^US Expedited Arrives in \d+(–\d+)? business days \$19\.95$/,
  ]);
  await expect(shippingGroup(page)).not.toContainText('Canada');
  await expect(page.getByLabel('Country')).toHaveValue('US');
  await expect(page.getByLabel('Country').locator('option')).toHaveText(['United States']);
  await expect(page.getByLabel('State')).toBeVisible();
  await expect(page.getByLabel('ZIP code')).toBeVisible();
  await expect(shippingGroup(page).getByRole('radio', { name: /^US Standard / })).toBeChecked();
  await expectSimTotals(page, itemsCents, 'US Standard', 695);

  // Expedited and back: the total due follows the choice each time.
  await shippingGroup(page)
    .getByRole('radio', { name: /^US Expedited / })
    .check();
  await expectSimTotals(page, itemsCents, 'US Expedited', 1995);
  await shippingGroup(page)
    .getByRole('radio', { name: /^US Standard / })
    .check();
  await expectSimTotals(page, itemsCents, 'US Standard', 695);

  await fillPayment(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: `Pay ${dollars(itemsCents + 695)}` }).click();
  const orderId = await paidOrderId(page);
  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
  await expectPaidOrder(order, itemsCents, 'US Standard', 695);
  await expect(order.locator('address')).toContainText('Madison, WI 53703');
});
