// The 3D viewer in Chromium: the time from 'View 3D' to a drawn model, and the download, for a 64 MB binary
// STL (1.34 M triangles, shown from its simplified view mesh) against a 14 kB cube in the same run. Needs the
// built client (npm run build) and Debian's Chromium; prints figures, no pass/fail on absolute time.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium.ts';
import { bigBinaryStl, box, concatChunks, toBinaryStl, triangles } from '../src/mesh/testing/generate.ts';
import { multipartBody } from '../src/server/models/testing.ts';
import { startBenchShop } from './shop.ts';

const MB = 1024 * 1024;
const clientDir = path.resolve('dist/client');
const executablePath = findChromium();
if (!fs.existsSync(path.join(clientDir, 'index.html')) || !executablePath) {
  console.log('SKIPPED: needs the built client (npm run build) and Chromium');
  process.exit(0);
}

const shop = await startBenchShop('viewer', { clientDir, publicUrl: 'http://127.0.0.1:0' });
const { app } = shop;
const address = await app.listen({ host: '127.0.0.1', port: 0 });

/** Uploads as one browser (its visitor cookie) and answers the model id. */
async function upload(fileName: string, bytes: Uint8Array, cookie?: string) {
  const { payload, contentType } = multipartBody([{ fileName, bytes }]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
  const visitor = res.cookies.find((c) => c.name === 'visitor');
  return { id: (res.json() as { id: string }).id, cookie: cookie ?? `visitor=${visitor!.value}` };
}

const big = concatChunks(bigBinaryStl(64 * MB));
const cube = toBinaryStl(triangles(box(20, 20, 20)));
const first = await upload('big.stl', big);
const small = await upload('cube.stl', cube, first.cookie);
const glbBytes = async (id: string) =>
  (await app.inject({ url: `/api/models/${id}/view.glb`, headers: { cookie: first.cookie } })).rawPayload
    .length;

const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
const [name, value] = first.cookie.split('=') as [string, string];
await context.addCookies([{ name, value, url: address }]);
const page = await context.newPage();
// Every open downloads the view mesh again, as a customer's first view does.
await (await context.newCDPSession(page)).send('Network.setCacheDisabled', { cacheDisabled: true });
await page.goto(address);
await page.evaluate(
  (ids) => {
    const models = ids.map((id, n) => ({ key: `k${n}`, id, choices: {} }));
    localStorage.setItem('printUploads', JSON.stringify({ version: 1, models }));
  },
  [small.id, first.id],
);
await page.reload();

/** Milliseconds from the click on 'View 3D' to an enabled 'Fit to view' (the model drawn). */
async function open(card: number): Promise<number> {
  const button = page.getByRole('article').nth(card).getByRole('button', { name: 'View 3D' });
  await button.waitFor();
  const start = performance.now();
  await button.click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByRole('button', { name: 'Fit to view' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 60_000 });
  const ms = performance.now() - start;
  if ((await dialog.getByRole('alert').count()) > 0) throw new Error('the viewer showed an error');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return ms;
}

const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('model                      file       view.glb   open ms (median of 5, min-max)');
for (const [card, label, file, id] of [
  [0, 'cube, 12 triangles', cube.length, small.id],
  [1, 'binary STL, 64 MB', big.length, first.id],
] as const) {
  await open(card); // warm-up: the viewer's code and the decoder's WebAssembly
  const times: number[] = [];
  for (let k = 0; k < ROUNDS; k++) times.push(await open(card));
  const glb = await glbBytes(id);
  console.log(
    `${label.padEnd(24)} ${(file / MB).toFixed(2).padStart(6)} MB ${(glb / MB).toFixed(2).padStart(6)} MB   ${median(times).toFixed(0).padStart(6)} (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)})`,
  );
}

await browser.close();
await shop.close();
