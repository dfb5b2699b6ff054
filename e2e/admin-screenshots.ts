// Screenshots of the admin panel (board, order, production sheet, job tickets) at desktop and tablet widths,
// for looking at what we build. Against a running shop whose outbox is readable (the embedded default), with
// an admin made by the CLI while the shop was stopped:
//   npm run admin -- create shots-admin shots-admin@example.com --password shots-secret-1
//   DATA_DIR=./data ADMIN_USERNAME=shots-admin ADMIN_PASSWORD=shots-secret-1 \
//     npx tsx e2e/admin-screenshots.ts http://localhost:3000 /tmp/admin-shots
// It places three paid orders as a new customer (simulator), moves two of them on, then takes the pictures.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { box, inverted, merged, toBinaryStl, translated, triangles } from '../src/mesh/testing/generate.ts';
import { paidOrder } from './admin-helpers.ts';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';
import { BLOCK, writeModels } from './helpers.ts';
import { outboxLink } from './outbox-link.ts';

const [base = 'http://localhost:3000', outDir = '/tmp/admin-shots'] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR ?? './data';
const admin = {
  username: process.env.ADMIN_USERNAME ?? 'shots-admin',
  password: process.env.ADMIN_PASSWORD ?? 'shots-secret-1',
};
const executablePath = findChromium();
if (!executablePath) throw new Error('No Chromium found: apt-get install -y chromium');
fs.mkdirSync(outDir, { recursive: true });
const models = writeModels();
// Two parts, one of them inside out: the shop turns it outward and flags the order for review.
const BRACKET = 'bracket-pair.stl';
const pair = merged(box(30, 15, 10), translated(inverted(box(12, 12, 8)), 40, 0, 0));
fs.writeFileSync(path.join(models, BRACKET), toBinaryStl(triangles(pair)));

const WIDTHS = [
  ['1366', { width: 1366, height: 900 }],
  ['1024', { width: 1024, height: 768 }],
  ['820', { width: 820, height: 1180 }],
] as const;

async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

async function shot(page: Page, name: string, width: string) {
  await page.waitForLoadState('networkidle');
  const file = path.join(outDir, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

/** The page on Letter paper, as the print stylesheet lays it out; says how many sheets it takes. */
async function pdf(page: Page, name: string) {
  const file = path.join(outDir, `${name}.pdf`);
  const bytes = await page.pdf({ path: file, format: 'Letter' });
  const sheets = bytes.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
  console.log(`${file} (${sheets} ${sheets === 1 ? 'page' : 'pages'})`);
}

/** A new customer pays for three orders; returns their numbers. */
async function placeOrders(browser: Browser): Promise<number[]> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
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
  await logIn(page, username, password);
  const ids = [
    await paidOrder(page, models, { notes: 'Flat side down, please.' }),
    await paidOrder(page, models, {
      files: [BLOCK],
      name: 'Grace Hopper',
      color: 'Red',
      strength: 'Solid',
      quantity: '3',
      notes: 'Gift: no invoice in the parcel.',
    }),
    await paidOrder(page, models, {
      files: [BRACKET],
      name: 'Alan Turing',
      color: 'Green',
      strength: 'Light',
    }),
  ];
  await context.close();
  return ids;
}

/** Moves the first order to queued and the second to printing, with a note, as the admin. */
async function moveOn(page: Page, [first, second]: number[]) {
  const move = async (id: number, button: string, status: string) => {
    await page.goto(`/admin/orders/${id}`);
    await page.getByRole('button', { name: button }).click();
    await page.locator('.status-panel .status-badge', { hasText: status }).waitFor();
  };
  await move(first!, 'Queue for printing', 'Queued for Print');
  await move(second!, 'Queue for printing', 'Queued for Print');
  await move(second!, 'Start printing', 'Printing');
  await page.getByLabel('Note', { exact: true }).fill('Customer asked for the red to match a sample.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.locator('.timeline-entry', { hasText: 'match a sample' }).waitFor();
}

const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const ids = await placeOrders(browser);
let moved = false;
for (const [width, viewport] of WIDTHS) {
  const context = await browser.newContext({ viewport, baseURL: base });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.print = () => {};
  });
  await logIn(page, admin.username, admin.password);
  if (!moved) {
    await moveOn(page, ids);
    moved = true;
  }

  await page.goto('/admin');
  await page.locator('.orders-table').waitFor();
  await shot(page, 'board', width);

  await page.goto(`/admin/orders/${ids[1]}`);
  await page.locator('.order-layout').waitFor();
  await shot(page, 'detail', width);
  await page.getByRole('button', { name: 'View 3D' }).click();
  await page.getByText(/Grid squares are/).waitFor();
  await page.screenshot({ path: path.join(outDir, `detail-viewer-${width}.png`) });
  await page.getByRole('button', { name: 'Close' }).click();
  await page.goto(`/admin/orders/${ids[2]}`);
  await page.locator('.order-layout').waitFor();
  await page.getByRole('button', { name: 'Resolve…' }).first().click();
  await page.getByRole('button', { name: 'Cancel order…' }).click();
  await shot(page, 'detail-paid-cancel', width);

  await page.goto('/admin/production');
  await page.locator('.production-group').first().waitFor();
  await shot(page, 'production', width);
  await page.emulateMedia({ media: 'print' });
  await shot(page, 'production-print', width);
  await pdf(page, 'production');
  await page.emulateMedia({ media: 'screen' });

  await page.goto(`/admin/tickets?ids=${ids.join(',')}`);
  await page.locator('.ticket').first().waitFor();
  await shot(page, 'tickets', width);
  await page.emulateMedia({ media: 'print' });
  await shot(page, 'tickets-print', width);
  await pdf(page, 'tickets');
  await context.close();
}
await browser.close();
fs.rmSync(models, { recursive: true, force: true });
