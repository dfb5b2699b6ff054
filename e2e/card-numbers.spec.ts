import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { box, toBinaryStl, toObj, triangles } from '../src/mesh/testing/generate.ts';
import { expect, test } from './fixtures.ts';
import { modelCard, newCustomer, uploadModels } from './helpers.ts';

// Issue #26, numbers that read right: a tiny model's volume in mm³ instead of "0.00 cm³", a big one's with
// thousands separators; why a small part costs the $12.00 minimum at every strength; the quantity discounts
// before a line reaches one; and a screen reader's "1 item in cart", not "1 items".

let dir: string;
const TINY = 'tiny-1mm.stl';
const LARGE = 'large-250mm.stl';
const BLOCK = 'block-60x40x30.obj';

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-numbers-'));
  // 1 mm³ (0.001 cm³), and 15,625 cm³: within the default 256 mm build volume, so it can be ordered.
  fs.writeFileSync(path.join(dir, TINY), toBinaryStl(triangles(box(1, 1, 1))));
  fs.writeFileSync(path.join(dir, LARGE), toBinaryStl(triangles(box(250, 250, 250))));
  // Hollow, Light and Standard at the minimum, Heavy and Solid above it.
  fs.writeFileSync(path.join(dir, BLOCK), toObj(box(60, 40, 30)));
});

test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const SMALL_PART =
  'Small part: the $12.00 minimum price applies to every strength, and quantity discounts do not go below it.';
const TIERS = '5% off from 10, 10% off from 50.';

test('a card reads its numbers right, says why small parts cost the minimum, and the cart counts in words', async ({
  page,
  shop,
  request,
}) => {
  test.setTimeout(120_000);
  await newCustomer(page, shop, request);
  await page.goto('/');
  await uploadModels(page, dir, [TINY, LARGE, BLOCK]);

  const tiny = modelCard(page, TINY);
  await expect(tiny.getByTestId('volume')).toHaveText('1 mm³');
  await expect(tiny.getByTestId('dimensions')).toHaveText('1.0 x 1.0 x 1.0 mm');
  await expect(tiny.getByTestId('minimum-note')).toHaveText(SMALL_PART);
  // The note describes the strength choice for a screen reader too.
  await expect(tiny.getByRole('group', { name: 'Strength' })).toHaveAccessibleDescription(SMALL_PART);
  for (const label of ['Hollow', 'Light', 'Standard', 'Heavy', 'Solid']) {
    await expect(
      tiny.locator('label').filter({ has: page.getByRole('radio', { name: label }) }),
    ).toContainText('$12.00');
  }
  const quantity = tiny.getByLabel('Quantity', { exact: true });
  await expect(tiny.getByTestId('quantity-tiers')).toHaveText(TIERS);
  await expect(quantity).toHaveAccessibleDescription(TIERS);

  const large = modelCard(page, LARGE);
  await expect(large.getByTestId('volume')).toHaveText('15,625.00 cm³');
  await expect(large.getByTestId('dimensions')).toHaveText('250.0 x 250.0 x 250.0 mm');
  await expect(large.getByTestId('minimum-note')).toHaveCount(0);
  await expect(large.getByTestId('quantity-tiers')).toHaveText(TIERS);
  await expect(large.getByTestId('unit-price')).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);

  const block = modelCard(page, BLOCK);
  await expect(block.getByTestId('minimum-note')).toHaveText(
    'The $12.00 minimum price applies to Hollow, Light, and Standard; quantity discounts do not go below it.',
  );

  // Into the cart: the icon says "1 item in cart" to a screen reader, then "2 items in cart".
  const nav = page.getByRole('navigation', { name: 'Main' });
  await tiny.getByRole('button', { name: 'Add to cart' }).click();
  await expect(nav.getByRole('link', { name: 'Cart, 1 item in cart' })).toBeVisible();
  await large.getByRole('button', { name: 'Add to cart' }).click();
  await expect(nav.getByRole('link', { name: 'Cart, 2 items in cart' })).toBeVisible();

  // The cart's lines use the same formats.
  const section = page.locator('#cart-section');
  await expect(section.locator('li.cart-item').filter({ hasText: TINY })).toContainText('1 mm³');
  await expect(section.locator('li.cart-item').filter({ hasText: LARGE })).toContainText('15,625.00 cm³');
});
