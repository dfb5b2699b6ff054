// Screenshots of the checkout at desktop and phone widths, for looking at what we build. Against a running
// shop whose outbox is readable (the embedded default):
//   DATA_DIR=./data npx tsx e2e/checkout-screenshots.ts http://localhost:3000 /tmp/shots
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';
import { BLOCK, CUBE, writeModels } from './helpers.ts';
import { outboxLink } from './outbox-link.ts';

const [base = 'http://localhost:3000', outDir = '/tmp/shots'] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR ?? './data';
const executablePath = findChromium();
if (!executablePath) throw new Error('No Chromium found: apt-get install -y chromium');
fs.mkdirSync(outDir, { recursive: true });
const models = writeModels();

async function shot(page: Page, name: string, width: string) {
  const file = path.join(outDir, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
for (const [width, viewport] of [
  ['1366', { width: 1366, height: 900 }],
  ['390', { width: 390, height: 844 }],
] as const) {
  const context = await browser.newContext({ viewport, baseURL: base });
  const page = await context.newPage();
  const username = `shots${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const password = 'screenshot-secret-1';
  const res = await page.request.post('/api/register.php', {
    data: { username, email, password },
    headers: { origin: base },
  });
  if (res.status() !== 201) throw new Error(`register: ${res.status()}`);
  await page.goto(await outboxLink(dataDir, email));
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles([path.join(models, CUBE), path.join(models, BLOCK)]);
  const cube = page.getByRole('article', { name: CUBE });
  const block = page.getByRole('article', { name: BLOCK });
  for (const card of [cube, block]) {
    await card.locator('.price-box[data-state=quoted]').waitFor({ timeout: 30_000 });
  }
  await cube.getByRole('button', { name: 'Add to cart' }).click();
  await block.getByText('Solid', { exact: true }).click();
  await block.getByLabel('Quantity', { exact: true }).fill('10');
  await block.getByLabel(/^Notes/).fill('Flat side down, please.');
  await block.locator('.price-box[data-state=quoted]').waitFor();
  await block.getByRole('button', { name: 'Add to cart' }).click();
  await page.locator('.cart-summary[data-state=quoted]').waitFor();
  await page.locator('#cart-section').scrollIntoViewIfNeeded();
  await page.locator('#cart-section').screenshot({ path: path.join(outDir, `cart-${width}.png`) });
  console.log(path.join(outDir, `cart-${width}.png`));

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await page.waitForURL(/\/pay\/simulator\//);
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  await page.waitForLoadState('networkidle');
  await shot(page, 'simulator', width);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.locator('[aria-invalid=true]').first().waitFor();
  await shot(page, 'simulator-errors', width);

  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Address line 1').fill('1 Capitol Square');
  await page.getByLabel('City').fill('Madison');
  await page.getByLabel('State').selectOption('WI');
  await page.getByLabel('ZIP code').fill('53703');
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('alert').first().waitFor();
  await shot(page, 'simulator-declined', width);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/\/payment-success/);
  await page.getByTestId('order-state').waitFor();
  await shot(page, 'payment-success', width);

  // A line the server refuses (a model that is gone), and an expired or unknown session.
  await page.evaluate(() => {
    const gone = {
      id: 'gone',
      filePath: 'm_AAAAAAAAAAAAAAAAAAAAAA',
      fileName: 'removed-part.stl',
      color: '#dc3545',
      strength: 3,
      cost: 12,
      quantity: 1,
      previewImage: '',
      volumeCm3: 0,
      dimensions: { x: 10, y: 10, z: 10 },
      notes: '',
    };
    localStorage.setItem('printCart', JSON.stringify([gone]));
  });
  await page.goto('/#cart-section');
  await page.locator('.cart-summary[data-state=quoted]').waitFor();
  await page.locator('#cart-section').screenshot({ path: path.join(outDir, `cart-refused-${width}.png`) });
  console.log(path.join(outDir, `cart-refused-${width}.png`));
  await page.goto('/pay/simulator/cs_sim_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shot(page, 'simulator-unknown', width);

  await page.goto('/orders');
  await page.locator('.order-card').first().waitFor();
  await page.waitForLoadState('networkidle');
  await shot(page, 'orders', width);
  await context.close();
}
await browser.close();
fs.rmSync(models, { recursive: true, force: true });
