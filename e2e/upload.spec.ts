import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { box, toBinaryStl, toObj, triangles, uvSphere } from '../src/mesh/testing/generate.ts';
import { bambu3mf, scaleMove } from '../src/mesh/testing/threemf.ts';
import type { ModelPayload, QuotePayload, QuoteRequest } from '../src/shared/models.ts';
import { expect, test } from './fixtures.ts';
import { newCustomer } from './helpers.ts';

// The upload journey: two models in, measured and priced, viewed in 3D, and into the cart.

let dir: string;
const CUBE = 'cube-20mm.stl';
const BLOCK = 'block-60x40x30.obj';
const TINY = 'tiny-in-inches.stl';
const PLATE = 'Plate 1.3mf';
const BIG = 'ball-250k.stl';

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-upload-'));
  fs.writeFileSync(path.join(dir, CUBE), toBinaryStl(triangles(box(20, 20, 20))));
  // Big enough that its price depends on the strength (small parts all cost the $12.00 minimum).
  fs.writeFileSync(path.join(dir, BLOCK), toObj(box(60, 40, 30)));
  fs.writeFileSync(path.join(dir, TINY), toBinaryStl(triangles(box(2, 1.5, 1))));
  // 250,000 triangles: past what the upload's worker task keeps, so its picture is drawn after its price.
  fs.writeFileSync(path.join(dir, BIG), toBinaryStl(triangles(uvSphere(30, 500, 251))));
  // A plate as Bambu Studio saves it, drawn in inches: a 2 x 1 x 1 in block and a 0.5 in ball beside it.
  fs.writeFileSync(
    path.join(dir, PLATE),
    bambu3mf(
      [
        { mesh: box(2, 1, 1), transform: scaleMove(1, 1, 1, 0) },
        { mesh: uvSphere(0.25, 32, 16), transform: scaleMove(1, 4.3, 1.5, 0.25) },
      ],
      'inch',
    ),
  );
});

test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every model the server answered with (uploads and rescales), by file name. */
function recordModels(page: Page): Map<string, ModelPayload> {
  const models = new Map<string, ModelPayload>();
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (res.status() === 201 && (url.pathname === '/api/uploads' || url.pathname.endsWith('/scale'))) {
      const model = (await res.json()) as ModelPayload;
      models.set(model.fileName, model);
    }
  });
  return models;
}

const STRENGTHS = [
  [1, 'Hollow'],
  [2, 'Light'],
  [3, 'Standard'],
  [4, 'Heavy'],
  [5, 'Solid'],
] as const;

const CART_FIELDS = [
  'id',
  'filePath',
  'fileName',
  'color',
  'strength',
  'cost',
  'quantity',
  'previewImage',
  'volumeCm3',
  'dimensions',
  'notes',
];

/**
 * The next quote answer whose request matches and whose body can still be read. An answer that reached
 * the page just before a reload has no body left (the browser dropped it with the old document), so it
 * is passed over: the reloaded page asks again.
 */
async function waitForQuote(page: Page, match: (request: QuoteRequest) => boolean): Promise<QuotePayload> {
  let payload: QuotePayload | undefined;
  const res = await page.waitForResponse(async (r) => {
    if (new URL(r.url()).pathname !== '/api/quote' || !match(r.request().postDataJSON() as QuoteRequest))
      return false;
    try {
      payload = (await r.json()) as QuotePayload;
      return true;
    } catch {
      return false;
    }
  });
  expect(res.status()).toBe(200);
  return payload!;
}

/** No serious or critical axe violation inside `selector` (the rest of the page has its own journey). */
async function expectAccessibleWithin(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual(
    [],
  );
}

const card = (page: Page, fileName: string) => page.getByRole('article', { name: fileName });

/** Uploads the cube and the block together and waits for both cards. */
async function uploadCubeAndBlock(page: Page) {
  await page.getByLabel('Choose files').setInputFiles([path.join(dir, CUBE), path.join(dir, BLOCK)]);
  const cube = card(page, CUBE);
  const block = card(page, BLOCK);
  await expect(cube).toBeVisible({ timeout: 30_000 });
  await expect(block).toBeVisible({ timeout: 30_000 });
  return { cube, block };
}

const unitPrice = (c: Locator) => c.getByTestId('unit-price');
const quoted = (c: Locator) => expect(c.locator('.price-box')).toHaveAttribute('data-state', 'quoted');

async function expectPreview(c: Locator) {
  const img = c.getByRole('img', { name: /^Preview of / });
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
    .toBe(true);
}

test('upload an STL and an OBJ, price them, view them in 3D and add both to the cart', async ({ page }) => {
  const models = recordModels(page);
  await page.goto('/');

  const { cube, block } = await uploadCubeAndBlock(page);
  await expect(cube.getByTestId('dimensions')).toHaveText('20.0 x 20.0 x 20.0 mm');
  await expect(cube.getByTestId('volume')).toHaveText('8.00 cm³');
  await expect(block.getByTestId('dimensions')).toHaveText('60.0 x 40.0 x 30.0 mm');
  await expect(block.getByTestId('volume')).toHaveText('72.00 cm³');
  await expectPreview(cube);
  await expectPreview(block);

  // Every strength shows its label, n/5 and its price; the quote answers for the default picks.
  const cubeModel = models.get(CUBE)!;
  const blockModel = models.get(BLOCK)!;
  expect(cubeModel).toBeTruthy();
  expect(blockModel).toBeTruthy();
  for (const [level, label] of STRENGTHS) {
    const price = blockModel.prices[String(level) as keyof ModelPayload['prices']];
    await expect(block.locator('label').filter({ has: page.getByRole('radio', { name: label }) })).toHaveText(
      `${label}${level}/5$${price.toFixed(2)}`,
    );
  }
  await quoted(cube);
  await quoted(block);
  await expectAccessibleWithin(page, '#upload');
  await expect(unitPrice(block)).toHaveText(`$${blockModel.prices['3'].toFixed(2)}`);

  // Strength, color, quantity and notes on the block; the server's quote follows every change.
  expect(blockModel.prices['5']).toBeGreaterThan(blockModel.prices['3']);
  const solidQuote = waitForQuote(page, (q) => q.strength === 5);
  await block.getByText('Solid', { exact: true }).click();
  await expect(block.getByRole('radio', { name: /^Solid/ })).toBeChecked();
  const solid = await solidQuote;
  await expect(unitPrice(block)).toHaveText(`$${solid.unitPrice.toFixed(2)}`);
  await expect(unitPrice(block)).not.toHaveText(`$${blockModel.prices['3'].toFixed(2)}`);

  const redQuote = waitForQuote(page, (q) => q.color === '#dc3545');
  await block.getByText('Red', { exact: true }).click();
  await expect(block.getByRole('radio', { name: 'Red' })).toBeChecked();
  const red = await redQuote;
  expect(red).toMatchObject({ modelId: blockModel.id, color: '#dc3545', strength: 5, quantity: 1 });
  await expect(unitPrice(block)).toHaveText(`$${red.unitPrice.toFixed(2)}`);

  const twoQuote = waitForQuote(page, (q) => q.quantity === 2);
  await block.getByLabel('Quantity').fill('2');
  const two = await twoQuote;
  await expect(block.getByTestId('line-total')).toHaveText(`$${two.lineTotal.toFixed(2)}`);
  await block.getByLabel(/^Notes/).fill('Please print with the flat side down.');

  // The 3D viewer: a canvas, no error; Escape and Close both close it and give focus back.
  const view = cube.getByRole('button', { name: 'View 3D' });
  await view.click();
  const dialog = page.getByRole('dialog', { name: `3D view ${CUBE}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: 'Fit to view' })).toBeEnabled();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Fit to view' }).click();
  await expectAccessibleWithin(page, '[role=dialog]');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(view).toBeFocused();

  await block.getByRole('button', { name: 'View 3D' }).click();
  const blockDialog = page.getByRole('dialog', { name: `3D view ${BLOCK}` });
  await expect(blockDialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(blockDialog.getByRole('alert')).toHaveCount(0);
  await blockDialog.getByRole('button', { name: 'Close' }).click();
  await expect(blockDialog).toBeHidden();

  // Into the cart.
  const cubeUnit = (await unitPrice(cube).textContent())!;
  await cube.getByRole('button', { name: 'Add to cart' }).click();
  await expect(cube.getByText('Added to cart')).toBeVisible();
  await expect(cube.getByRole('link', { name: 'View cart' })).toHaveAttribute('href', '/#cart-section');
  await quoted(block);
  await block.getByRole('button', { name: 'Add to cart' }).click();
  await expect(block.getByText('Added to cart')).toBeVisible();

  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('printCart') ?? '[]'));
  expect(cart).toHaveLength(2);
  for (const item of cart) {
    expect(Object.keys(item).sort()).toEqual([...CART_FIELDS].sort());
    expect(item.id).toEqual(expect.any(String));
  }
  expect(cart[0]).toEqual({
    id: cart[0].id,
    filePath: cubeModel.id,
    fileName: CUBE,
    color: '#007bff',
    strength: 3,
    cost: Number(cubeUnit.slice(1)),
    quantity: 1,
    previewImage: cubeModel.previewImage,
    volumeCm3: cubeModel.volumeCm3,
    dimensions: cubeModel.dimensions,
    notes: '',
  });
  expect(cart[1]).toEqual({
    id: cart[1].id,
    filePath: blockModel.id,
    fileName: BLOCK,
    color: '#dc3545',
    strength: 5,
    cost: two.unitPrice,
    quantity: 2,
    previewImage: blockModel.previewImage,
    volumeCm3: blockModel.volumeCm3,
    dimensions: blockModel.dimensions,
    notes: 'Please print with the flat side down.',
  });
});

test('a model drawn in inches is scaled by 25.4 in one click', async ({ page }) => {
  const models = recordModels(page);
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, TINY));
  const tiny = card(page, TINY);
  await expect(tiny.getByTestId('dimensions')).toHaveText('2.0 x 1.5 x 1.0 mm', { timeout: 30_000 });
  const scale = tiny.getByRole('button', { name: 'Scale by 25.4' });
  await scale.click();
  await expect(tiny.getByTestId('dimensions')).toHaveText('50.8 x 38.1 x 25.4 mm');
  await expect(scale).toHaveCount(0);
  await quoted(tiny);
  await tiny.getByRole('button', { name: 'Add to cart' }).click();
  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('printCart') ?? '[]'));
  const scaled = models.get(TINY)!;
  expect(scaled.dimensions.x).toBeCloseTo(50.8, 3);
  expect(cart).toEqual([expect.objectContaining({ filePath: scaled.id, dimensions: scaled.dimensions })]);

  // The card remembers the rescaled model, not the one drawn in inches.
  await page.reload();
  await expect(tiny.getByTestId('dimensions')).toHaveText('50.8 x 38.1 x 25.4 mm', { timeout: 30_000 });
  await expect(scale).toHaveCount(0);
});

test('a rescale reaches the cart line and the 3D view', async ({ page, shop, request }) => {
  test.setTimeout(90_000);
  await newCustomer(page, shop, request);
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, TINY));
  const tiny = card(page, TINY);
  await expect(tiny.getByTestId('dimensions')).toHaveText('2.0 x 1.5 x 1.0 mm', { timeout: 30_000 });
  await quoted(tiny);
  await tiny.getByRole('button', { name: 'Add to cart' }).click();
  const line = page.locator('#cart-section li.cart-item');
  await expect(line).toContainText('2.0 x 1.5 x 1.0 mm');

  await tiny.getByRole('button', { name: 'Scale by 25.4' }).click();
  await expect(tiny.getByTestId('dimensions')).toHaveText('50.8 x 38.1 x 25.4 mm');
  await quoted(tiny);
  // One line, now of the rescaled model: its size, preview and the card's price.
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('50.8 x 38.1 x 25.4 mm');
  const models = await page.evaluate(() => JSON.parse(localStorage.getItem('printCart') ?? '[]'));
  // In the line's colour (the card's default, Blue).
  await expect(line.locator('img')).toHaveAttribute('src', `${models[0].previewImage}?color=blue`);
  await expect(page.locator('.cart-summary')).toHaveAttribute('data-state', 'quoted');
  await expect(line.getByTestId('line-total')).toHaveText(await tiny.getByTestId('line-total').innerText());

  // The viewer draws it at its new size: a 50.8 mm model sits on a grid of 5 mm squares, not 1 mm.
  await tiny.getByRole('button', { name: 'View 3D' }).click();
  const dialog = page.getByRole('dialog', { name: `3D view ${TINY}` });
  await expect(dialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('Grid squares are 5 mm.');
});

test('Moon.stl, a closed model of 0.89 mm³, gets its size and the one-click scale', async ({ page }) => {
  await page.goto('/');
  await page
    .getByLabel('Choose files')
    .setInputFiles(path.resolve('fixtures/real-world/numpy-stl/stl_binary/Moon.stl'));
  const moon = card(page, 'Moon.stl');
  await expect(moon.getByTestId('dimensions')).toHaveText(/^\d+\.\d x \d+\.\d x \d+\.\d mm$/, {
    timeout: 30_000,
  });
  await expect(moon).toContainText('This model is very small: was it designed in inches?');
  await moon.getByRole('button', { name: 'Scale by 25.4' }).click();
  await expect(moon.getByRole('button', { name: 'Scale by 25.4' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('a big model is priced at once, and its picture follows, the frame saying it is being drawn', async ({
  page,
}) => {
  await page.goto('/');
  // Hold the picture back a moment, so the wait is seen whatever this machine's speed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/models/*/preview.png*', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, BIG));
  const big = card(page, BIG);
  await expect(big).toBeVisible({ timeout: 30_000 });
  await quoted(big);
  await expect(big.locator('.model-preview')).toHaveText('Drawing preview…');
  release();
  await expectPreview(big);
  await expect(big.locator('.model-preview')).toHaveText('');
});

test('a .txt file is refused in the browser, without a request', async ({ page }) => {
  const uploads: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/uploads')) uploads.push(req.url());
  });
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not a model'),
  });
  await expect(page.getByRole('alert')).toHaveText('Only .stl, .obj and .3mf files are accepted.');
  await expect(page.getByRole('listitem').filter({ hasText: 'notes.txt' })).toBeVisible();
  expect(uploads).toEqual([]);
});

test('a model dropped on the drop zone is uploaded', async ({ page }) => {
  await page.goto('/');
  const bytes = Array.from(fs.readFileSync(path.join(dir, CUBE)));
  const zone = page.locator('.drop-zone');
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, name }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name));
      return dt;
    },
    { bytes, name: 'dropped.stl' },
  );
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expect(zone).toContainText('Drop to upload');
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(card(page, 'dropped.stl').getByTestId('dimensions')).toHaveText('20.0 x 20.0 x 20.0 mm', {
    timeout: 30_000,
  });
});

test('the model cards come back after a reload and a visit elsewhere, with their picks', async ({ page }) => {
  await page.goto('/');
  const { cube, block } = await uploadCubeAndBlock(page);
  const titles = page.locator('#upload article h3');
  const order = await titles.allTextContents();

  const redSolid = waitForQuote(page, (q) => q.color === '#dc3545' && q.strength === 5);
  await block.getByText('Red', { exact: true }).click();
  await block.getByText('Solid', { exact: true }).click();
  await block.getByLabel('Quantity').fill('3');
  await block.getByLabel(/^Notes/).fill('Matte, please.');
  await redSolid;

  const expectPicks = async () => {
    await expect(titles).toHaveText(order, { timeout: 30_000 });
    await expect(block.getByRole('radio', { name: 'Red' })).toBeChecked();
    await expect(block.getByRole('radio', { name: /^Solid/ })).toBeChecked();
    await expect(block.getByLabel('Quantity')).toHaveValue('3');
    await expect(block.getByLabel(/^Notes/)).toHaveValue('Matte, please.');
    await expect(cube.getByRole('radio', { name: 'Blue' })).toBeChecked();
    await expect(cube.getByRole('radio', { name: /^Standard/ })).toBeChecked();
    await expectPreview(cube);
    await expectPreview(block);
  };

  const quote = waitForQuote(page, (q) => q.color === '#dc3545' && q.strength === 5 && q.quantity === 3);
  await page.reload();
  await expectPicks();
  const again = await quote;
  await expect(block.getByTestId('line-total')).toHaveText(`$${again.lineTotal.toFixed(2)}`);
  await expectAccessibleWithin(page, '#upload');

  await page.getByRole('link', { name: 'About', exact: true }).first().click();
  await expect(page).toHaveURL(/\/about$/);
  await page.goBack();
  await expectPicks();

  // A model the server no longer has (cleaned up, or someone else's) is left out without a word.
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('printUploads')!);
    saved.models.unshift({ key: 'gone', id: 'm_AAAAAAAAAAAAAAAAAAAAAA', choices: {} });
    localStorage.setItem('printUploads', JSON.stringify(saved));
  });
  await page.reload();
  await expectPicks();
  await expect(page.locator('#upload [role=alert]')).toHaveCount(0);

  await block.getByRole('button', { name: `Remove ${BLOCK}` }).click();
  await expect(block).toHaveCount(0);
  await page.reload();
  await expect(cube).toBeVisible({ timeout: 30_000 });
  await expect(block).toHaveCount(0);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('printUploads') ?? 'null'));
  expect(saved.models).toEqual([
    expect.objectContaining({ choices: expect.objectContaining({ color: '#007bff' }) }),
  ]);
});

test('a 3MF plate is measured in its own unit, priced, viewed in 3D and added to the cart', async ({
  page,
}) => {
  const models = recordModels(page);
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, PLATE));
  const plate = card(page, PLATE);
  await expect(plate).toBeVisible({ timeout: 30_000 });
  // 1..4.55 in along x, 1..2 in along y, 0..1 in up: in millimetres, no inches question.
  await expect(plate.getByTestId('dimensions')).toHaveText('90.2 x 25.4 x 25.4 mm');
  await expect(plate.getByText('was it designed in inches?')).toHaveCount(0);
  await expect(plate.getByText(/^3MF · /)).toBeVisible();
  await expectPreview(plate);
  await quoted(plate);
  const model = models.get(PLATE)!;
  expect(model.format).toBe('3mf');
  await expect(unitPrice(plate)).toHaveText(`$${model.prices['3'].toFixed(2)}`);

  await plate.getByRole('button', { name: 'View 3D' }).click();
  const dialog = page.getByRole('dialog', { name: `3D view ${PLATE}` });
  await expect(dialog.locator('canvas')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await plate.getByRole('button', { name: 'Add to cart' }).click();
  await expect(plate.getByText('Added to cart')).toBeVisible();
  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('printCart') ?? '[]'));
  expect(cart).toEqual([
    expect.objectContaining({ filePath: model.id, fileName: PLATE, cost: model.prices['3'], quantity: 1 }),
  ]);
});
