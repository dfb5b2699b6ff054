import fs from 'node:fs';
import path from 'node:path';
import { decodePng } from '../src/mesh/testing/png-decode.ts';
import { expect, test } from './fixtures.ts';

// The 3D viewer opens every model the server accepts: each real-world fixture (numpy-stl's and
// tinyobjloader's test files, HalfDonut.stl among them) is uploaded, and the viewer draws it from the
// server's view mesh: no error text, and the model's blue in the canvas.

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

test('the viewer draws every real-world model the server accepts', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  const accepted: Array<{ id: string; fileName: string; file: string }> = [];
  for (const dir of DIRS) {
    for (const name of fs.readdirSync(path.join(FIXTURES, dir)).filter((f) => /\.(stl|obj)$/i.test(f))) {
      const res = await page.request.post('/api/uploads', {
        multipart: {
          file: {
            name,
            mimeType: 'application/octet-stream',
            buffer: fs.readFileSync(path.join(FIXTURES, dir, name)),
          },
        },
        headers: { origin: new URL(page.url()).origin },
      });
      if (res.status() === 201)
        accepted.push({
          ...((await res.json()) as { id: string; fileName: string }),
          file: `${dir}/${name}`,
        });
    }
  }
  expect(accepted.length).toBeGreaterThan(20);
  expect(accepted.map((a) => a.file)).toContain('numpy-stl/stl_binary/HalfDonut.stl');

  // The upload tool shows the remembered models; each card's View 3D opens the viewer.
  await page.evaluate(
    (ids) => {
      const models = ids.map((id, n) => ({ key: `k${n}`, id, choices: {} }));
      localStorage.setItem('printUploads', JSON.stringify({ version: 1, models }));
    },
    accepted.map((a) => a.id),
  );
  await page.reload();
  for (const [n, model] of accepted.entries()) {
    const card = page.getByRole('article').nth(n);
    await expect(card).toContainText(model.fileName);
    await card.getByRole('button', { name: 'View 3D' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'Fit to view' }), model.file).toBeEnabled({
      timeout: 30_000,
    });
    await expect(dialog.getByRole('alert'), model.file).toHaveCount(0);
    const pixels = modelPixels(await dialog.locator('canvas').screenshot());
    expect(pixels, `${model.file}: the model's pixels`).toBeGreaterThan(500);
    if (model.file.endsWith('stl_binary/HalfDonut.stl')) {
      await dialog.screenshot({ path: test.info().outputPath('half-donut.png') });
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
});
