import { describe, expect, it } from 'vitest';
import { encodePng, encodePngAsync, decodePng as readPng } from './png.ts';
import { previewPng, recolorPreview, recolorPreviewPng } from './preview.ts';
import { renderPreview } from './rasterise.ts';
import { merged, torus, translated, triangles, uvSphere } from './testing/generate.ts';
import { decodePng } from './testing/png-decode.ts';

// A stored preview is drawn once, in blue (the shop's default colour); each line shows it in its own
// colour by recolouring those pixels, which must look as if drawn in that colour.

const BLUE = '#007bff';
const RED = '#dc3545';
const GRAY = '#6c757d';
const WHITE = '#f8f9fa';
const SIZE = 128;
const model = triangles(merged(uvSphere(10, 32, 16), translated(torus(14, 3, 32, 12), 0, 0, 4)));
const drawn = (color: string) => renderPreview(model, { width: SIZE, height: SIZE, color });

type Pixel = [number, number, number, number];
function* pixels(rgba: Uint8Array): Generator<Pixel> {
  for (let o = 0; o < rgba.length; o += 4) yield [rgba[o]!, rgba[o + 1]!, rgba[o + 2]!, rgba[o + 3]!];
}

describe('recolorPreview', () => {
  it('turns a blue preview into the red one, as if it had been drawn in red', () => {
    const recoloured = recolorPreview(drawn(BLUE), BLUE, RED);
    const red = drawn(RED);
    let covered = 0;
    let close = 0;
    let worst = 0;
    let alphaChanged = 0;
    for (let o = 0; o < red.length; o += 4) {
      // Coverage (the outline and its antialiasing) is never touched.
      if (recoloured[o + 3] !== red[o + 3]) alphaChanged++;
      if (red[o + 3] === 0) continue;
      covered++;
      const diff = Math.max(...[0, 1, 2].map((k) => Math.abs(recoloured[o + k]! - red[o + k]!)));
      worst = Math.max(worst, diff);
      if (diff <= 2) close++;
    }
    expect(alphaChanged).toBe(0);
    expect(covered).toBeGreaterThan(SIZE * SIZE * 0.2);
    // Off by a rounding nearly everywhere; a little darker only where blue saturated (the brightest faces).
    expect(close / covered).toBeGreaterThan(0.97);
    expect(worst).toBeLessThan(40);
  });

  it('gives a red line red-dominant pixels and leaves the background transparent', () => {
    const recoloured = recolorPreview(drawn(BLUE), BLUE, RED);
    let covered = 0;
    let reddish = 0;
    let backgroundTinted = 0;
    for (const [r, g, b, a] of pixels(recoloured)) {
      if (a === 0) {
        if (r + g + b > 0) backgroundTinted++;
        continue;
      }
      covered++;
      if (r > g + 40 && r > b + 40) reddish++;
    }
    expect(backgroundTinted).toBe(0);
    // Everything but the white-hot highlight.
    expect(reddish / covered).toBeGreaterThan(0.9);
  });

  it('keeps grey grey: a gray or white line has no blue cast from the stored picture', () => {
    for (const [color, spread] of [
      [GRAY, 0x7d - 0x6c],
      [WHITE, 0xfa - 0xf8],
    ] as const) {
      const recoloured = recolorPreview(drawn(BLUE), BLUE, color);
      let covered = 0;
      let neutral = 0;
      for (const [r, g, b, a] of pixels(recoloured)) {
        if (a === 0) continue;
        covered++;
        // No more spread between channels than the colour itself has (plus rounding).
        if (Math.max(r, g, b) - Math.min(r, g, b) <= spread + 3) neutral++;
      }
      expect(neutral).toBe(covered);
    }
  });

  it('gives back the same picture for the colour it was drawn in, and works from a grey picture too', () => {
    const blue = drawn(BLUE);
    const again = recolorPreview(blue, BLUE, BLUE);
    let changed = 0;
    for (let k = 0; k < blue.length; k++) if (Math.abs(again[k]! - blue[k]!) > 1) changed++;
    expect(changed).toBe(0);
    // A grey base cannot tell light from highlight, but still gives the colour's hue.
    const fromGrey = recolorPreview(drawn('#cccccc'), '#cccccc', RED);
    let reddish = 0;
    let covered = 0;
    for (const [r, g, b, a] of pixels(fromGrey)) {
      if (a === 0) continue;
      covered++;
      if (r > g && r > b) reddish++;
    }
    expect(reddish / covered).toBeGreaterThan(0.99);
  });
});

describe('recolorPreviewPng and the PNG reader', () => {
  it('reads back what encodePng and encodePngAsync wrote, RGBA and RGB', async () => {
    const w = 37;
    const h = 23;
    const rgba = new Uint8Array(w * h * 4);
    for (let k = 0; k < rgba.length; k++) rgba[k] = (k * 7919) % 251;
    expect(readPng(encodePng(rgba, w, h))).toEqual({ width: w, height: h, rgba });
    expect(readPng(await encodePngAsync(rgba, w, h, 1))).toEqual({ width: w, height: h, rgba });
    for (let k = 3; k < rgba.length; k += 4) rgba[k] = 255;
    expect(readPng(encodePng(rgba, w, h))).toEqual({ width: w, height: h, rgba });
  });

  it('refuses what is not a PNG it can read, or is damaged', () => {
    const png = encodePng(new Uint8Array(4 * 4 * 4).fill(9), 4, 4);
    expect(() => readPng(new Uint8Array([1, 2, 3]))).toThrow(/not a PNG/);
    const damaged = png.slice();
    damaged[30] = damaged[30]! ^ 0xff;
    expect(() => readPng(damaged)).toThrow(/bad CRC|pixel data|incorrect|invalid/);
    expect(() => readPng(png.subarray(0, png.length - 20))).toThrow(/truncated|pixel data/);
  });

  it('recolours a stored preview PNG: same size, red pixels where it was blue', async () => {
    const stored = previewPng(model, { width: SIZE, height: SIZE, color: BLUE });
    const red = decodePng(await recolorPreviewPng(stored, BLUE, RED));
    expect([red.width, red.height]).toEqual([SIZE, SIZE]);
    const blue = decodePng(stored);
    let reddish = 0;
    let covered = 0;
    let alphaChanged = 0;
    for (let o = 0; o < red.pixels.length; o += 4) {
      if (red.pixels[o + 3] !== blue.pixels[o + 3]) alphaChanged++;
      if (red.pixels[o + 3] === 0) continue;
      covered++;
      if (red.pixels[o]! > red.pixels[o + 2]! + 40) reddish++;
    }
    expect(alphaChanged).toBe(0);
    expect(reddish / covered).toBeGreaterThan(0.9);
  });
});
