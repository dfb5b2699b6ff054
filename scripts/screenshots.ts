// Screenshots of pages at desktop and phone widths, for looking at what we build:
//   npx tsx scripts/screenshots.ts http://localhost:3000 /tmp/shots / /about /faq
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium.ts';

const [base = 'http://localhost:3000', outDir = '/tmp/shots', ...paths] = process.argv.slice(2);
const executablePath = findChromium();
if (!executablePath) throw new Error('No Chromium found: apt-get install -y chromium');
fs.mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
for (const [name, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  const page = await browser.newPage({ viewport });
  for (const p of paths.length ? paths : ['/']) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    const file = path.join(outDir, `${p.replace(/[^a-z0-9]+/gi, '_') || 'home'}-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
