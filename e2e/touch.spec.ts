import fs from 'node:fs';
import { expect, test } from './fixtures.ts';
import { CUBE, modelCard, uploadModels, writeModels } from './helpers.ts';

// Touch devices get touch words: no "drag and drop" on a phone, and the viewer names finger gestures.

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
