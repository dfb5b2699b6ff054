import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { type ParsedMail, readOutboxDir } from '../src/server/mail/testing.ts';

export type Shop = {
  baseURL: string;
  dataDir: string;
  /** Mails the shop wrote to its outbox (DATA_DIR/outbox/*.eml), oldest first. */
  mails(): ParsedMail[];
};

export const test = base.extend<{ shop: Shop }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  shop: async ({}, use) => {
    const dataDir = process.env.E2E_DATA_DIR ?? '';
    await use({
      baseURL: process.env.E2E_BASE_URL ?? '',
      dataDir,
      mails: () => readOutboxDir(path.join(dataDir, 'outbox')),
    });
  },
  page: async ({ page }, use) => {
    // E2E_CPU_THROTTLE=6 runs the page as a slow machine would: races between the page and the journey
    // (an answer arriving as a reload starts) show up here first, not as a rare failure on CI.
    const throttle = Number(process.env.E2E_CPU_THROTTLE ?? 1);
    if (throttle > 1) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    }
    // A page error or console error fails the journey.
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      // Chromium logs every 4xx answer (401 logged out, 409 taken, ...); the journeys assert what the page
      // shows for those. A 5xx or the page's own console.error is a failure.
      if (msg.type() === 'error' && !/Failed to load resource: .*status of 4\d\d/.test(msg.text())) {
        problems.push(`console.error: ${msg.text()}`);
      }
    });
    await use(page);
    expect(problems, 'errors in the page').toEqual([]);
  },
});

export { expect };

/** Runs axe on the page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `accessibility on ${page.url()}`,
  ).toEqual([]);
}
