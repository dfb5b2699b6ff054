import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { apiCheckout } from './checkout-helpers.ts';
import { expect, test } from './fixtures.ts';
import { BLOCK, CUBE, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';
import { smallTargets, targetSize } from './touch-targets.ts';

// Touch devices get touch words (no "drag and drop" on a phone, finger gestures in the viewer) and
// controls a finger can hit: at least 24 x 24 px everywhere (WCAG 2.2, 2.5.8), 44 x 44 px for the main ones.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a phone gets touch words in the drop zone and the viewer', async ({ page }) => {
  await page.goto('/');
  const zone = page.locator('.drop-zone');
  await expect(zone).toContainText('Choose your 3D models to upload');
  await expect(zone).not.toContainText(/drag/i);
  await uploadModels(page, dir, [CUBE]);
  await modelCard(page, CUBE).getByRole('button', { name: 'View 3D' }).click();
  const dialog = page.getByRole('dialog', { name: `3D view ${CUBE}` });
  await expect(dialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.locator('.viewer-hint')).toContainText(
    'Drag with one finger to turn, pinch to zoom, drag with two fingers to move.',
  );
  await expect(dialog.locator('.viewer-hint')).not.toContainText('right-drag');
});

/** No control of the page under 24 x 24 px (links in a sentence excepted, as 2.5.8 does). */
async function expectNoSmallTargets(page: Page) {
  expect(await smallTargets(page, 24), `controls under 24 x 24 px on ${page.url()}`).toEqual([]);
}

/** Each of these main controls is at least 44 x 44 px. */
async function expectFingerSized(controls: Record<string, Locator>) {
  for (const [name, control] of Object.entries(controls)) {
    await expect(control, name).toBeVisible();
    const size = await targetSize(control);
    expect(size.width, `${name}: ${size.width} x ${size.height}`).toBeGreaterThanOrEqual(44);
    expect(size.height, `${name}: ${size.width} x ${size.height}`).toBeGreaterThanOrEqual(44);
  }
}

const footer = (page: Page) => page.getByRole('navigation', { name: 'Footer' });
const menu = (page: Page) => page.getByRole('button', { name: 'Menu' });

const PUBLIC_PAGES = [
  '/',
  '/about',
  '/faq',
  '/contact',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=abc',
  '/reset-password',
  '/payment-success',
  '/payment-cancel',
];

test('every control of the public pages is at least 24 x 24 px on a phone; the menu and footer 44 x 44', async ({
  page,
}) => {
  for (const url of PUBLIC_PAGES) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (url === '/') await expect(page.getByText('Choose files', { exact: true })).toBeVisible();
    await expectNoSmallTargets(page);
  }
  await page.goto('/faq');
  await expectFingerSized({
    Menu: menu(page),
    'About Us (footer)': footer(page).getByRole('link', { name: 'About Us' }),
    'Contact (footer)': footer(page).getByRole('link', { name: 'Contact' }),
    'FAQ (footer)': footer(page).getByRole('link', { name: 'FAQ' }),
    'a question': page.locator('.faq summary').first(),
  });
  await menu(page).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Register' })).toBeVisible();
  await expectNoSmallTargets(page);
  await expectFingerSized({
    Home: nav.getByRole('link', { name: 'Home' }),
    FAQ: nav.getByRole('link', { name: 'FAQ' }),
    Login: nav.getByRole('link', { name: 'Login' }),
    Register: nav.getByRole('link', { name: 'Register' }),
  });
});

test("a customer's main controls are 44 x 44 px on a phone: the model card, the cart, My Orders, payment", async ({
  page,
  shop,
}) => {
  test.setTimeout(120_000);
  // Logged in at a desktop's width (the helper looks for the open navigation), then a phone's.
  await page.setViewportSize({ width: 1280, height: 900 });
  await newCustomer(page, shop, page.request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await uploadModels(page, dir, [CUBE]);
  const card = modelCard(page, CUBE);
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await expect(card.getByText('Added to cart')).toBeVisible();
  const cart = page.locator('#cart-section');
  await expect(cart.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expectNoSmallTargets(page);
  await expectFingerSized({
    Remove: card.getByRole('button', { name: `Remove ${CUBE}` }),
    'View cart (card)': card.getByRole('link', { name: 'View cart' }),
    'View 3D': card.getByRole('button', { name: 'View 3D' }),
    'Add to cart': card.getByRole('button', { name: 'Add to cart' }),
    Red: card.locator('label').filter({ has: page.getByRole('radio', { name: 'Red' }) }),
    Solid: card.locator('label').filter({ has: page.getByRole('radio', { name: /^Solid/ }) }),
    'the row that closes the card': page.getByRole('button', { name: `Close ${CUBE}` }),
    'View cart (1)': page.locator('.cart-jump').getByRole('link', { name: 'View cart (1)' }),
    Menu: menu(page),
    'Decrease quantity': cart.getByRole('button', { name: 'Decrease quantity' }),
    'Increase quantity': cart.getByRole('button', { name: 'Increase quantity' }),
    'Remove (cart)': cart.getByRole('button', { name: 'Remove', exact: true }),
    'Proceed to Checkout': cart.getByRole('button', { name: 'Proceed to Checkout' }),
  });

  // A paid order and one waiting for payment, for My Orders and the payment pages.
  const paid = await apiCheckout(shop, page.request, path.join(dir, BLOCK), true);
  const pending = await apiCheckout(shop, page.request, path.join(dir, CUBE), false);
  await page.goto('/orders');
  await expect(page.getByRole('button', { name: 'Order again' }).first()).toBeVisible();
  await expectNoSmallTargets(page);
  await expectFingerSized({
    'Order again': page.getByRole('button', { name: 'Order again' }).first(),
    'View 3D Model': page.getByRole('button', { name: 'View 3D Model' }).first(),
    'Complete payment': page.getByRole('link', { name: 'Complete payment' }).first(),
    'Cancel order': page.getByRole('button', { name: 'Cancel order' }).first(),
  });

  await page.goto(`/payment-success?session_id=${paid.sessionId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful');
  await expectNoSmallTargets(page);
  await page.goto(`/pay/simulator/${pending.sessionId}`);
  await expect(page.getByText('TEST MODE', { exact: true })).toBeVisible();
  await expectNoSmallTargets(page);
  await expectFingerSized({ Pay: page.getByRole('button', { name: /^Pay \$/ }) });
  await page.goto('/payment-cancel');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSmallTargets(page);
});
