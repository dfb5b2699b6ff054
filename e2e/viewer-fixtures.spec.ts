import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  bigBinaryStl,
  bigObj,
  box,
  concatChunks,
  toBinaryStl,
  toFloat32,
  triangles,
  uvSphere,
} from '../src/mesh/testing/generate.ts';
import { decodePng } from '../src/mesh/testing/png-decode.ts';
import { bambu3mf, scaleMove } from '../src/mesh/testing/threemf.ts';
import { expect, test } from './fixtures.ts';

// The 3D viewer opens every model the server accepts: each real-world fixture (numpy-stl's and
// tinyobjloader's test files, HalfDonut.stl among them) is chosen in the upload tool and opened the moment
// its card shows, and the viewer draws it from the server's view mesh: no error text, and the model's blue
// in the canvas. So are a 40 MB OBJ and a 64 MB binary STL, drawn coarse first while their full view is
// made. It says "Simplified for display" only when the server's view mesh was simplified, not when it left
// out a few degenerate triangles.

const FIXTURES = path.resolve('fixtures/real-world');
const DIRS = ['numpy-stl/stl_binary', 'numpy-stl/stl_ascii', 'numpy-stl/stl_tests', 'tinyobjloader'];

/** Pixels of the model's blue (#007bff, however it is lit) in a PNG of the canvas. */
function modelPixels(png: Buffer): number {
  const { width, height, pixels: rgba } = decodePng(new Uint8Array(png));
  let n = 0;
  for (let i = 0; i < width * height * 4; i += 4) {
    if (rgba[i + 2]! - rgba[i]! > 60) n++;
  }
  return n;
}

/**
 * Opens the card of the n-th of `total` remembered models (oldest first; the upload tool lists them newest
 * first, one row each, a row opening to its card) and its 3D viewer; gives the row and the dialog.
 */
async function openViewer(page: Page, n: number, total: number) {
  const row = page
    .getByRole('list', { name: 'Your models, newest first' })
    // Its own items: an open card may hold lists of its own.
    .locator(':scope > li')
    .nth(total - 1 - n);
  await row.getByRole('button', { name: /^Edit / }).click();
  await row.getByRole('article').getByRole('button', { name: 'View 3D' }).click();
  return { row, dialog: page.getByRole('dialog') };
}

/** Closes the viewer and folds the row back. */
async function closeViewer(row: Locator, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await row.getByRole('button', { name: /^Close / }).click();
}

/**
 * Chooses a file (from disk, as a customer does) in the upload tool and, the moment its card shows, clicks
 * its 'View 3D'; the dialog, or null when the shop refused the file.
 */
async function uploadAndOpen(page: Page, file: string): Promise<Locator | null> {
  const name = path.basename(file);
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/uploads') && r.request().method() === 'POST',
    { timeout: 60_000 },
  );
  await page.getByLabel('Choose files').setInputFiles(file);
  if ((await answered).status() !== 201) return null;
  // A fresh upload shows as its full card, newest first.
  await page
    .getByRole('article', { name, exact: true })
    .first()
    .getByRole('button', { name: 'View 3D' })
    .click();
  return page.getByRole('dialog');
}

test('the viewer draws every real-world model the server accepts, opened right after its upload', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  const accepted: string[] = [];
  for (const dir of DIRS) {
    for (const name of fs.readdirSync(path.join(FIXTURES, dir)).filter((f) => /\.(stl|obj)$/i.test(f))) {
      const file = `${dir}/${name}`;
      const dialog = await uploadAndOpen(page, path.join(FIXTURES, file));
      if (!dialog) continue;
      accepted.push(file);
      await expect(dialog.getByRole('button', { name: 'Fit to view' }), file).toBeEnabled({
        timeout: 30_000,
      });
      await expect(dialog.locator('.viewer-frame'), file).toHaveAttribute('data-view', 'full', {
        timeout: 30_000,
      });
      await expect(dialog.getByRole('alert'), file).toHaveCount(0);
      const pixels = modelPixels(await dialog.locator('canvas').screenshot());
      expect(pixels, `${file}: the model's pixels`).toBeGreaterThan(500);
      if (file.endsWith('stl_binary/HalfDonut.stl')) {
        await dialog.screenshot({ path: test.info().outputPath('half-donut.png') });
      }
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
    }
  }
  expect(accepted.length).toBeGreaterThan(20);
  expect(accepted).toContain('numpy-stl/stl_binary/HalfDonut.stl');
});

test('a 40 MB OBJ and a 64 MB STL are drawn at once when opened the moment their upload answers', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const MB = 1024 * 1024;
  await page.goto('/');
  for (const [name, bytes] of [
    ['sphere.obj', concatChunks(bigObj(40 * MB))],
    ['sphere.stl', concatChunks(bigBinaryStl(64 * MB))],
  ] as const) {
    // Playwright hands over at most 50 MB from memory: the file is chosen from disk.
    const file = test.info().outputPath(name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    const coarse = page.waitForResponse((r) => r.url().endsWith('/view-coarse.glb'), { timeout: 60_000 });
    const dialog = await uploadAndOpen(page, file);
    if (!dialog) throw new Error(`${name} was refused`);
    // Its full view is still being made: a coarse one is drawn first, then replaced.
    expect((await coarse).status(), name).toBe(200);
    await expect(dialog.getByRole('button', { name: 'Fit to view' }), name).toBeEnabled({ timeout: 30_000 });
    await expect(dialog.locator('.viewer-frame'), name).toHaveAttribute('data-view', 'full', {
      timeout: 60_000,
    });
    await expect(dialog.getByRole('alert'), name).toHaveCount(0);
    await expect(dialog.getByText('Simplified for display', { exact: false })).toHaveCount(1);
    expect(modelPixels(await dialog.locator('canvas').screenshot()), name).toBeGreaterThan(500);
    await dialog.screenshot({ path: test.info().outputPath(`big-${name}.png`) });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
});

async function upload(page: Page, name: string, buffer: Buffer): Promise<{ id: string; triangles: number }> {
  const res = await page.request.post('/api/uploads', {
    multipart: { file: { name, mimeType: 'application/octet-stream', buffer } },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status(), name).toBe(201);
  return (await res.json()) as { id: string; triangles: number };
}

test('the viewer says "Simplified for display" only for a model it simplified', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  // A plate as Bambu Studio writes it, with 4 triangles that have a corner twice (exporters leave such):
  // its view has 4 triangles fewer than its file, and nothing simplified.
  const sphere = uvSphere(20, 128, 120);
  const degenerate = {
    vertices: sphere.vertices,
    faces: [...sphere.faces, [0, 0, 1], [1, 2, 2], [3, 4, 3], [5, 5, 5]],
  };
  const plate = await upload(
    page,
    'Plate 1.3mf',
    Buffer.from(
      bambu3mf([
        { mesh: degenerate, transform: scaleMove(1, 100, 100, 20) },
        { mesh: box(20, 20, 20), transform: scaleMove(1, 140, 100, 0) },
      ]),
    ),
  );
  expect(plate.triangles).toBe(30_468 + 12);
  // 358,800 triangles: above the 300,000 the viewer draws.
  const big = await upload(
    page,
    'big.stl',
    Buffer.from(toBinaryStl(toFloat32(triangles(uvSphere(40, 600, 300))))),
  );
  expect(big.triangles).toBeGreaterThan(300_000);

  await page.evaluate(
    (ids) => {
      const models = ids.map((id, n) => ({ key: `k${n}`, id, choices: {} }));
      localStorage.setItem('printUploads', JSON.stringify({ version: 1, models }));
    },
    [plate.id, big.id],
  );
  await page.reload();
  for (const [n, simplified] of [
    [0, false],
    [1, true],
  ] as const) {
    const { row, dialog } = await openViewer(page, n, 2);
    await expect(dialog.getByRole('button', { name: 'Fit to view' })).toBeEnabled({ timeout: 60_000 });
    // A coarse first view says nothing of simplifying: the full one does.
    await expect(dialog.locator('.viewer-frame')).toHaveAttribute('data-view', 'full', { timeout: 60_000 });
    await expect(dialog.locator('.viewer-hint')).toContainText('Grid squares are');
    const words = dialog.getByText('Simplified for display: the print uses every detail of your file.', {
      exact: false,
    });
    await expect(words).toHaveCount(simplified ? 1 : 0);
    await dialog.screenshot({
      path: test.info().outputPath(simplified ? 'simplified.png' : 'plate-3mf.png'),
    });
    await closeViewer(row, dialog);
  }
});
