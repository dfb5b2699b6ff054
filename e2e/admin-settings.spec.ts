import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import { box, toBinaryStl, triangles } from '../src/mesh/testing/generate.ts';
import { logOut, paidOrder, switchToAdmin } from './admin-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { E2E_ADMIN } from './global-setup.ts';
import { BLOCK, logIn, modelCard, newCustomer, uploadModels, writeModels } from './helpers.ts';

// The back office's settings (issue #25, "Done when"): an admin changes the price per gram, sees the preview
// move, saves, and a new upload's prices follow while an order placed before keeps its prices; the change is
// in the history. The shop's pricing is put back afterwards: the other journeys share this server.
// With SETTINGS_SHOTS_DIR set, a second test takes screenshots of each tab at desktop and tablet widths.

/** The block's twin in another file (the same measures, another content): a new upload, priced as BLOCK. */
const BLOCK_COPY = 'block-copy-60x40x30.stl';

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
  fs.writeFileSync(path.join(dir, BLOCK_COPY), toBinaryStl(triangles(box(60, 40, 30))));
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The shop's API as the CLI-made admin (its own cookie jar, from the shop's origin). */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/login.php', {
    data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
  });
  expect(login.status()).toBe(200);
  return api;
}

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));
const previewCell = (page: Page, id: string) => page.getByTestId(id);
/** The first money amount of a preview cell ('$26.93+$4.47' -> '$26.93'). */
const amountOf = async (page: Page, id: string) =>
  (await previewCell(page, id).textContent())?.match(/\$[\d,]+\.\d\d/)?.[0] ?? '';
const previewReady = (page: Page) =>
  expect(page.locator('.preview-note')).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });

test('an admin changes the price per gram: the preview moves, new uploads follow, a placed order keeps its prices', async ({
  page,
  shop,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const api = await adminApi(shop.baseURL);
  const original = (await (await api.get('/api/admin/settings/pricing')).json()).values;
  try {
    // A customer's order, placed at today's prices: one solid block.
    const customer = await newCustomer(page, shop, request);
    const orderId = await paidOrder(page, dir, { files: [BLOCK], strength: 'Solid' });
    await page.goto('/orders');
    const order = page.locator('.order-card').filter({ hasText: `Order #${orderId}` });
    const placedUnit = (await order.locator('.order-item .meta').first().textContent())?.match(
      /Unit cost:\s*(\$[\d.,]+)/,
    )?.[1];
    const placedTotal = await order.locator('.line-total').first().textContent();
    expect(placedUnit).toMatch(/^\$\d/);

    // The admin's pricing page: the block's prices now, and the same with nothing changed yet.
    await switchToAdmin(page);
    await page.goto('/admin/settings');
    await expect(page).toHaveURL(/\/admin\/settings\/pricing$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    await expect(page.getByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Sample')).toHaveValue('block');
    await previewReady(page);
    const now = await amountOf(page, 'now-unit-5-1');
    expect(now).toBe(placedUnit);
    expect(await amountOf(page, 'new-unit-5-1')).toBe(now);
    await expectAccessible(page);

    // 5 cents a gram more: the preview's New column moves (a solid block is 89.28 g: $22.46 becomes $26.93) as typed.
    const perGram = page.getByLabel(/^Price per gram/);
    const before = Number(await perGram.inputValue());
    await perGram.fill(String(before + 5));
    await expect(previewCell(page, 'new-unit-5-1')).toContainText('+$4.47');
    await previewReady(page);
    const after = await amountOf(page, 'new-unit-5-1');
    expect(money(after) - money(now)).toBeCloseTo(4.47, 2);
    expect(await amountOf(page, 'now-unit-5-1')).toBe(now);
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();

    // A bad value is refused beside its field, and nothing is saved.
    const minimum = page.getByLabel(/^Minimum price/);
    const minimumBefore = await minimum.inputValue();
    await minimum.fill('0');
    await expect(page.getByText('Minimum price must be at least $0.01.')).toBeVisible();
    await expect(minimum).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Save pricing' }).click();
    await expect(minimum).toBeFocused();
    expect((await (await api.get('/api/admin/settings/pricing')).json()).values).toEqual(original);
    await minimum.fill(minimumBefore);

    // Saved: the prices in force are the new ones.
    await page.getByRole('button', { name: 'Save pricing' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Saved. New quotes use these prices now' }),
    ).toBeVisible();
    await previewReady(page);
    await expect(previewCell(page, 'now-unit-5-1')).toHaveText(after);
    await expect(previewCell(page, 'new-unit-5-1')).toHaveText(after);

    // The history says who changed what, from what to what.
    await page.getByRole('link', { name: 'History' }).click();
    const change = page.locator('.history-table tbody tr').filter({ hasText: 'Price per gram' }).first();
    await expect(change).toContainText(E2E_ADMIN.username);
    await expect(change.locator('td').nth(3)).toHaveText(String(before));
    await expect(change.locator('td').nth(4)).toHaveText(String(before + 5));
    await expectAccessible(page);

    // The customer's new upload is priced at the new price; the order placed before keeps its own.
    await logOut(page);
    await logIn(page, customer);
    await page.goto('/');
    await uploadModels(page, dir, [BLOCK_COPY]);
    const card = modelCard(page, BLOCK_COPY);
    await expect(
      card.locator('.strength-option').filter({ hasText: 'Solid' }).locator('.strength-price'),
    ).toHaveText(after);
    await page.goto('/orders');
    await expect(order.locator('.order-item .meta').first()).toContainText(`Unit cost: ${placedUnit}`);
    await expect(order.locator('.line-total').first()).toHaveText(placedTotal ?? '');
    testInfo.annotations.push({ type: 'prices', description: `${placedUnit} -> ${after}` });
  } finally {
    const restored = await api.put('/api/admin/settings/pricing', { data: { values: original } });
    expect(restored.status()).toBe(200);
    await api.dispose();
  }
});

const SHOTS = process.env.SETTINGS_SHOTS_DIR;

test('screenshots of each settings tab at desktop and tablet widths', async ({ page }) => {
  test.skip(!SHOTS, 'SETTINGS_SHOTS_DIR is not set');
  test.setTimeout(120_000);
  const out = SHOTS!;
  fs.mkdirSync(out, { recursive: true });
  await logIn(page, E2E_ADMIN);
  for (const [width, size] of [
    ['1280', { width: 1280, height: 900 }],
    ['820', { width: 820, height: 1180 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto('/admin/settings/pricing');
    await previewReady(page);
    const perGram = page.getByLabel(/^Price per gram/);
    await perGram.fill(String(Number(await perGram.inputValue()) + 2));
    await expect(previewCell(page, 'new-unit-5-1')).toContainText('+$');
    await previewReady(page);
    await page.screenshot({ path: path.join(out, `pricing-${width}.png`), fullPage: true });
    await page.getByLabel(/^Tier 2: off/).fill('4');
    await expect(
      page.getByText("Quantity discount 2: percent off must be more than discount 1's (5)."),
    ).toBeVisible();
    await page.screenshot({ path: path.join(out, `pricing-error-${width}.png`), fullPage: true });
    for (const tab of ['shipping', 'production', 'history']) {
      await page
        .getByRole('navigation', { name: 'Settings' })
        .getByRole('link', { name: new RegExp(tab, 'i') })
        .click();
      await expect(page).toHaveURL(new RegExp(`/admin/settings/${tab}$`));
      await expect(page.locator('.loading')).toHaveCount(0);
      await expectAccessible(page);
      await page.screenshot({ path: path.join(out, `${tab}-${width}.png`), fullPage: true });
    }
  }
});
