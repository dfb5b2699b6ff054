import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { SimulatorSessionPayload } from '../src/shared/checkout.ts';
import { expect, type Shop } from './fixtures.ts';
import { type Customer, mailedLink, modelCard, unique, uploadModels } from './helpers.ts';

// Checkout steps several journeys share: the cart, the simulator's form, and a customer who already paid
// for an order (set up through the API, as a returning customer arrives).

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
export const cartLines = (page: Page) => page.locator('#cart-section li.cart-item');
export const cartLine = (page: Page, fileName: string, strength: string) =>
  cartLines(page).filter({ hasText: fileName }).filter({ hasText: strength });
export const quantityOf = (line: Locator) => line.getByLabel('Quantity', { exact: true });
export const money = (n: number) => `$${n.toFixed(2)}`;

export type StoredLine = { filePath: string; fileName: string; strength: number; quantity: number };
export const storedCart = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('printCart') ?? '[]') as Record<string, unknown>[]);
/** The stored cart as `fileName:strength:quantity`, in order. */
export const storedLines = async (page: Page) =>
  (await storedCart(page)).map((l) => `${l.fileName}:${l.strength}:${l.quantity}`);
/** The account's saved cart on the server, as `fileName:strength:quantity`. */
export async function accountLines(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/cart');
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as { items: StoredLine[] };
  return items.map((l) => `${l.fileName}:${l.strength}:${l.quantity}`);
}

/** Picks color, strength and quantity on a model card and adds it once its price is the server's. */
export async function addLine(card: Locator, picks: { color: string; strength: string; quantity?: string }) {
  await card.getByText(picks.color, { exact: true }).click();
  await card.getByText(picks.strength, { exact: true }).click();
  await quantityOf(card).fill(picks.quantity ?? '1');
  await expect(card.locator('.price-box')).toHaveAttribute('data-state', 'quoted');
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await expect(card.getByText('Added to cart')).toBeVisible();
}

export const WISCONSIN = {
  name: 'Ada Lovelace',
  line1: '1 Capitol Square',
  line2: '',
  city: 'Madison',
  state: 'WI',
  postalCode: '53703',
  country: 'US',
};

/** Fills the simulator's shipping address (Wisconsin) and card. */
export async function fillPayment(page: Page, card: string) {
  await page.getByLabel('Full name').fill(WISCONSIN.name);
  await page.getByLabel('Address line 1').fill(WISCONSIN.line1);
  await page.getByLabel('City').fill(WISCONSIN.city);
  await page.getByLabel('State').selectOption(WISCONSIN.state);
  await page.getByLabel('ZIP code').fill(WISCONSIN.postalCode);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
}

/** One model in the cart (Blue, Standard, x2), checked out: the page is on the simulator. */
export async function modelInCartToSimulator(page: Page, dir: string, fileName: string) {
  await page.goto('/');
  await uploadModels(page, dir, [fileName]);
  await addLine(modelCard(page, fileName), { color: 'Blue', strength: 'Standard', quantity: '2' });
  await expect(cartLines(page).filter({ hasText: fileName })).toHaveCount(1);
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** A registered, verified customer logged in on `request` (an API context of its own), not in any page. */
export async function apiCustomer(shop: Shop, request: APIRequestContext): Promise<Customer> {
  const username = unique();
  const customer = { username, email: `${username}@example.com`, password: 'journey-secret-1' };
  const headers = { origin: shop.baseURL };
  expect((await request.post('/api/register.php', { data: customer, headers })).status()).toBe(201);
  const link = await mailedLink(shop, customer.email, `${shop.baseURL}/api/verify-email?token=`);
  expect((await request.get(link, { maxRedirects: 0 })).status()).toBe(302);
  const login = await request.post('/api/login.php', {
    data: { username, password: customer.password },
    headers,
  });
  expect(login.status()).toBe(200);
  return customer;
}

/**
 * An order of one model checked out through the API by the customer logged in on `request`: its session
 * id, and (with `pay`) paid on the simulator with the Wisconsin address.
 */
export async function apiCheckout(
  shop: Shop,
  request: APIRequestContext,
  file: string,
  pay: boolean,
): Promise<{ sessionId: string; redirectUrl?: string }> {
  const headers = { origin: shop.baseURL };
  const upload = await request.post('/api/uploads', {
    headers,
    multipart: {
      file: {
        name: path.basename(file),
        mimeType: 'application/octet-stream',
        buffer: fs.readFileSync(file),
      },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const model = (await upload.json()) as {
    id: string;
    fileName: string;
    previewImage: string;
    volumeCm3: number;
    dimensions: { x: number; y: number; z: number };
    prices: Record<string, number>;
  };
  const line = {
    id: `line-${model.id}`,
    filePath: model.id,
    fileName: model.fileName,
    color: '#28a745',
    strength: 3,
    cost: model.prices['3'] ?? 0,
    quantity: 1,
    previewImage: model.previewImage,
    volumeCm3: model.volumeCm3,
    dimensions: model.dimensions,
    notes: '',
  };
  const checkout = await request.post('/api/create-checkout-session.php', {
    headers,
    data: { cartItems: [line], shipTo: 'US' },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { id: sessionId } = (await checkout.json()) as { id: string };
  if (!pay) return { sessionId };
  // The hosted page's preselected shipping method (the first offered), as a customer paying leaves it.
  const session = await request.get(`/api/pay/simulator/${sessionId}`);
  expect(session.status(), await session.text()).toBe(200);
  const { shippingOptions } = (await session.json()) as SimulatorSessionPayload;
  expect(shippingOptions.length, 'the session offers shipping methods').toBeGreaterThan(0);
  const paid = await request.post(`/api/pay/simulator/${sessionId}/pay`, {
    headers,
    data: {
      card: { number: '4242424242424242', expiry: '12 / 39', cvc: '123' },
      shipping: WISCONSIN,
      shippingOption: shippingOptions[0]!.id,
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  return { sessionId, redirectUrl: ((await paid.json()) as { redirectUrl: string }).redirectUrl };
}
