import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIResponse, Locator } from '@playwright/test';
import { box, toBinaryStl, triangles } from '../src/mesh/testing/generate.ts';
import { decodePng } from '../src/mesh/testing/png-decode.ts';
import { addLine, cartLines, fillPayment, nav } from './checkout-helpers.ts';
import { expect, test } from './fixtures.ts';
import { modelCard, newCustomer, uploadModels } from './helpers.ts';

// A line as it was ordered (issue #26): a 2 mm cube drawn in inches, scaled by 25.4 and ordered in red,
// shows in My Orders at 50.8 mm, opens in the 3D viewer at that size, and every picture of it is red: the
// cart, the payment page, My Orders and the confirmation mail (whose images a mail reader may load).

const INCH_CUBE = 'inch-cube.stl';
/** 50.8 x 50.8 x 50.8 mm, whichever multiplication sign the shop prints. */
const ORDERED_SIZE = /^50\.8 \S 50\.8 \S 50\.8 mm$/;

let dir: string;
test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-ordered-'));
  fs.writeFileSync(path.join(dir, INCH_CUBE), toBinaryStl(triangles(box(2, 2, 2))));
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Share of a PNG answer's (opaque enough) pixels that are clearly red. */
async function redShare(res: APIResponse): Promise<number> {
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  const { pixels } = decodePng(new Uint8Array(await res.body()));
  let covered = 0;
  let red = 0;
  for (let o = 0; o < pixels.length; o += 4) {
    if (pixels[o + 3]! < 128) continue;
    covered++;
    if (pixels[o]! >= Math.max(pixels[o + 1]!, pixels[o + 2]!) + 40) red++;
  }
  return covered === 0 ? 0 : red / covered;
}

/** The picture an <img> shows has loaded. */
async function expectLoaded(img: Locator) {
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
    .toBe(true);
}

test('a scaled model ordered in red: My Orders shows its size, draws it at that size, and in red', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(150_000);
  const customer = await newCustomer(page, shop, request);
  await page.goto('/');
  await uploadModels(page, dir, [INCH_CUBE]);
  const card = modelCard(page, INCH_CUBE);
  await card.getByRole('button', { name: 'Scale by 25.4' }).click();
  await expect(card.getByTestId('dimensions')).toHaveText(ORDERED_SIZE);
  await addLine(card, { color: 'Red', strength: 'Standard' });

  // The cart's picture of the line is red.
  const cartImg = cartLines(page).first().locator('img');
  await expect(cartImg).toHaveAttribute('src', /\/preview\.png\?color=red$/);
  await expectLoaded(cartImg);
  expect(await redShare(await page.request.get((await cartImg.getAttribute('src'))!))).toBeGreaterThan(0.8);

  // So is the payment page's (a signed link, in the colour it was signed for).
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/simulator\/cs_sim_[\w-]+$/);
  const payImg = page.getByRole('img', { name: `Preview of ${INCH_CUBE}` });
  await expect(payImg).toHaveAttribute('src', /\/preview\.png\?exp=\d+&sig=[\w-]+&color=red$/);
  await expectLoaded(payImg);
  await fillPayment(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_sim_/);
  await expect(page.getByTestId('order-state')).toHaveText(/^Order #\d+: Paid \/ Processing/);
  const orderId = Number((await page.getByTestId('order-state').textContent())?.match(/#(\d+)/)?.[1]);

  // My Orders: the size as ordered, the picture in red.
  await nav(page).getByRole('link', { name: 'My Orders' }).click();
  const item = page
    .locator('.order-card')
    .filter({ hasText: `Order #${orderId}` })
    .locator('.order-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('dimensions')).toHaveText(ORDERED_SIZE);
  const img = item.getByRole('img', { name: `Preview of ${INCH_CUBE}` });
  await expect(img).toHaveAttribute('src', /\/preview\.png\?color=red$/);
  await expectLoaded(img);
  expect(await redShare(await page.request.get((await img.getAttribute('src'))!))).toBeGreaterThan(0.8);

  // The viewer draws it at the size ordered, on a grid of 5 mm squares (not a 2 mm cube on 1 mm squares).
  await item.getByRole('button', { name: 'View 3D Model' }).click();
  const dialog = page.getByRole('dialog', { name: `3D view ${INCH_CUBE}` });
  await expect(dialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.locator('.viewer-frame')).toHaveAttribute('data-drawn-size', ORDERED_SIZE);
  await expect(dialog).toContainText('Grid squares are 5 mm.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The confirmation mail's picture: red, and loadable by a mail reader (no cookie, another origin).
  let mailImage = '';
  await expect
    .poll(() => {
      const mail = shop
        .mails()
        .find((m) => (m.headers.to ?? '').includes(customer.email) && m.html.includes(`Order #${orderId}`));
      mailImage = mail?.html.match(/<img src="([^"]+)"/)?.[1]?.replaceAll('&amp;', '&') ?? '';
      return mailImage;
    })
    .toMatch(/\/preview\.png\?exp=\d+&sig=[\w-]+&color=red$/);
  const mailed = await request.get(mailImage, { headers: { origin: 'https://mail.example' } });
  expect(mailed.headers()['cross-origin-resource-policy']).toBe('cross-origin');
  expect(await redShare(mailed)).toBeGreaterThan(0.8);
});
