import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { box, toBinaryStl, triangles } from '../src/mesh/testing/generate.ts';
import { switchToAdmin } from './admin-helpers.ts';
import { addLine, cartLines, fillPayment } from './checkout-helpers.ts';
import { expect, test } from './fixtures.ts';
import { modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// Issue #28 (docs/security.md 21): markup and script typed by a customer (the file name, the notes, the name
// shipped to, a contact message) or by staff (a tracking number) shows as the very text typed on every page
// that shows it, runs nothing, and leaves no console error (the page fixture fails on one).

const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
// A '/' in a file name is a path: the shop keeps only what follows it, so the file's markup is the <img>.
const FILE = `${IMG}.stl`;
const NAME = `${IMG}Eve ${SCRIPT}`;
const NOTES = `${SCRIPT}${IMG} & "flat side down"`;
const CONTACT_NAME = `${SCRIPT}Mallory`;
const MESSAGE = `Hello ${SCRIPT}\n${IMG} <b>two copies</b>`;

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
  fs.writeFileSync(path.join(dir, FILE), toBinaryStl(triangles(box(20, 20, 20))));
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Nothing the customer typed became an element or ran: no <img src=x>, no inline <script>, no __xss. */
async function expectInert(page: Page, where: string) {
  await expect(page.locator('img[src="x"], script:not([src]), b, [onerror]'), where).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), where).toBeUndefined();
}

test('markup in file names, notes, names, contact messages and tracking numbers shows as text and runs nothing', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(240_000);
  const customer = await newCustomer(page, shop, request);

  // The upload card and the cart.
  await page.goto('/');
  await uploadModels(page, dir, [FILE]);
  const card = modelCard(page, FILE);
  await expect(card).toContainText(FILE);
  await card.getByLabel(/^Notes/).fill(NOTES);
  await addLine(card, { color: 'Blue', strength: 'Standard' });
  const line = cartLines(page).filter({ hasText: FILE });
  await expect(line).toHaveCount(1);
  await expectInert(page, 'home page and cart');

  // Paid, shipped to a name holding markup.
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await fillPayment(page, '4242 4242 4242 4242');
  await page.getByLabel('Full name').fill(NAME);
  await expect(page.getByText(FILE).first()).toBeVisible();
  await expectInert(page, 'payment page');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  const orderId = Number((await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1]);
  await expectInert(page, 'payment success');

  // The saved models on the home page, after a reload.
  await page.goto('/');
  await expect(page.getByText(FILE).first()).toBeVisible();
  await expectInert(page, 'saved models');

  // My Orders.
  await page.goto('/orders');
  const order = page
    .locator('li.order-card')
    .filter({ has: page.getByRole('heading', { name: `Order #${orderId}`, exact: true }) });
  await expect(order).toContainText(FILE);
  await expect(order.locator('.notes')).toHaveText(`Notes: ${NOTES}`);
  await expect(order.locator('address')).toContainText(NAME);
  await expectInert(page, 'My Orders');

  // A contact message.
  await page.goto('/contact');
  await page.getByLabel('Name').fill(CONTACT_NAME);
  await page.getByLabel('Message').fill(MESSAGE);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText("Thank you for your message! We'll get back to you soon.")).toBeVisible();
  await expectInert(page, 'contact');

  await switchToAdmin(page);
  const origin = { origin: shop.baseURL };

  // The board.
  await page.goto(`/admin?q=${orderId}`);
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await expect(row.locator('.customer-name')).toHaveText(NAME);
  await expectInert(page, 'board');

  // The order: its item, notes and address; a tracking number with markup is refused and nothing changes.
  for (const status of ['queued', 'printing']) {
    const moved = await page.request.post(`/api/admin/orders/${orderId}/status`, {
      data: { status, notify: false },
      headers: origin,
    });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  await page.goto(`/admin/orders/${orderId}`);
  const item = page.locator('.admin-item').first();
  await expect(item.locator('.file-name')).toHaveText(FILE);
  await expect(item.locator('.notes')).toHaveText(`Notes: ${NOTES}`);
  await expect(page.getByRole('region', { name: 'Shipping' }).locator('address')).toContainText(NAME);
  const ship = page.getByRole('form', { name: 'Ship the order' });
  await ship.getByLabel('Carrier').selectOption({ label: 'Other' });
  await ship.getByLabel('Tracking number').fill(IMG);
  await ship.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(ship.getByText('The tracking number must be 6 to 40 letters and digits.')).toBeVisible();
  for (const trackingNumber of [IMG, SCRIPT]) {
    const refused = await page.request.post(`/api/admin/orders/${orderId}/status`, {
      data: { status: 'shipped', carrier: 'other', trackingNumber },
      headers: origin,
    });
    expect(refused.status()).toBe(400);
  }
  await page.reload();
  await expect(page.getByRole('region', { name: 'Status' }).locator('.status-badge')).toHaveText('Printing');
  await expectInert(page, 'order detail');

  // The production sheet and the job ticket.
  await page.goto('/admin/production');
  const batch = page
    .locator('.production-group')
    .filter({ has: page.getByRole('link', { name: `#${orderId}` }) });
  await expect(batch.getByRole('link', { name: FILE })).toBeVisible();
  await expect(batch.locator('.col-notes').filter({ hasText: 'flat side down' })).toHaveText(NOTES);
  await expectInert(page, 'production sheet');

  await page.goto(`/admin/tickets?ids=${orderId}`);
  const ticket = page.getByRole('article', { name: `Order #${orderId}` });
  await expect(ticket.locator('address')).toContainText(NAME);
  await expect(ticket.locator('.file-name')).toHaveText(FILE);
  await expect(ticket.locator('.col-notes')).toHaveText(NOTES);
  await expectInert(page, 'job ticket');

  // The customer's page lists the order by the name shipped to.
  await page.goto(`/admin/customers?q=${customer.username}`);
  await page.getByRole('link', { name: customer.username }).click();
  await expect(page.getByRole('link', { name: `#${orderId}` })).toBeVisible();
  await expectInert(page, 'customer page');

  // The message.
  await page.goto('/admin/messages');
  const message = page.locator('.message', { hasText: 'two copies' }).first();
  await expect(message.getByRole('heading', { name: CONTACT_NAME })).toBeVisible();
  await expect(message.locator('.message-text')).toHaveText(MESSAGE, { useInnerText: true });
  await expectInert(page, 'messages');
});
