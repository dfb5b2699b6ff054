import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeMesh } from './analysis.ts';
import { crc32, encodePng } from './png.ts';
import { createPreviewRenderer, previewPng } from './preview.ts';
import { renderPreview } from './rasterise.ts';
import { box, inverted, toBinaryStl, toObj, triangles, uvSphere } from './testing/generate.ts';
import { decodePng } from './testing/png-decode.ts';
import { text } from './testing/run.ts';

const cube = triangles(box(10, 10, 10));

function pixel(
  img: { pixels: Uint8Array; width: number },
  x: number,
  y: number,
): [number, number, number, number] {
  const o = (y * img.width + x) * 4;
  return [img.pixels[o]!, img.pixels[o + 1]!, img.pixels[o + 2]!, img.pixels[o + 3]!];
}

describe('crc32 and encodePng', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(text('123456789'))).toBe(0xcbf43926);
    const bytes = text('IEND and some other bytes');
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });

  it('writes a PNG that decodes to the same pixels, RGBA or RGB', () => {
    const w = 37;
    const h = 23;
    const rgba = new Uint8Array(w * h * 4);
    for (let k = 0; k < rgba.length; k++) rgba[k] = (k * 7919) % 251;
    const decoded = decodePng(encodePng(rgba, w, h));
    expect(decoded).toMatchObject({ width: w, height: h, colorType: 6, chunks: ['IHDR', 'IDAT', 'IEND'] });
    expect(decoded.pixels).toEqual(rgba);
    for (let k = 3; k < rgba.length; k += 4) rgba[k] = 255;
    const opaque = decodePng(encodePng(rgba, w, h));
    expect(opaque.colorType).toBe(2);
    expect(opaque.pixels).toEqual(rgba);
  });
});

describe('renderPreview', () => {
  it('draws a cube in its colour at the centre, on the background at the corners', () => {
    const png = previewPng(cube, { color: '#007bff', background: '#f8f9fa' });
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const img = decodePng(png);
    expect(img).toMatchObject({ width: 512, height: 512 });
    const [r, g, b, a] = pixel(img, 256, 256);
    expect(a).toBe(255);
    expect(b).toBeGreaterThan(r + 80);
    expect(b).toBeGreaterThan(g);
    for (const [x, y] of [
      [0, 0],
      [511, 0],
      [0, 511],
      [511, 511],
    ] as const) {
      expect(pixel(img, x, y)).toEqual([0xf8, 0xf9, 0xfa, 255]);
    }
  });

  it('lights the faces differently: the top brightest, as lit from the upper left', () => {
    const img = decodePng(previewPng(cube, { color: '#cccccc' }));
    const top = pixel(img, 256, 130)[0];
    const left = pixel(img, 170, 330)[0];
    const right = pixel(img, 340, 330)[0];
    expect(top).toBeGreaterThan(left);
    expect(left).toBeGreaterThan(right);
  });

  it('renders on transparency by default, with soft edges', () => {
    const img = decodePng(previewPng(cube, { color: '#dc3545', width: 128, height: 96 }));
    expect(img.colorType).toBe(6);
    expect(pixel(img, 0, 0)[3]).toBe(0);
    expect(pixel(img, 64, 48)[3]).toBe(255);
    let partial = 0;
    for (let k = 3; k < img.pixels.length; k += 4) if (img.pixels[k]! > 0 && img.pixels[k]! < 255) partial++;
    expect(partial).toBeGreaterThan(20);
  });

  it('leaves no pinholes in a closed mesh, inverted normals included', () => {
    const sphere = triangles(inverted(uvSphere(10, 96, 48)));
    const rgba = renderPreview(sphere, { width: 200, height: 200, supersample: 1, margin: 0.1 });
    // Inside the sphere's disc every pixel is covered.
    let holes = 0;
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 200; x++) {
        if (Math.hypot(x + 0.5 - 100, y + 0.5 - 100) < 75 && rgba[(y * 200 + x) * 4 + 3] !== 255) holes++;
      }
    }
    expect(holes).toBe(0);
  });

  it('streams a second pass over the file and frames it on the analysed box', () => {
    const bytes = toObj(box(10, 10, 10));
    const analysis = analyzeMesh(bytes, 'obj');
    const renderer = createPreviewRenderer('obj', analysis.bbox, { width: 64, height: 64, color: '#28a745' });
    for (let k = 0; k < bytes.length; k += 10) renderer.push(bytes.subarray(k, k + 10));
    const rgba = renderer.finish();
    expect(rgba.length).toBe(64 * 64 * 4);
    const centre = (32 * 64 + 32) * 4;
    expect(rgba[centre + 3]).toBe(255);
    expect(rgba[centre + 1]!).toBeGreaterThan(rgba[centre]!);
    const binary = toBinaryStl(cube);
    const stl = createPreviewRenderer('stl-binary', analyzeMesh(binary, 'stl').bbox, {
      width: 64,
      height: 64,
    });
    stl.push(binary);
    expect(stl.finish()[centre + 3]).toBe(255);
  });

  it('draws a soft ground shadow when asked', () => {
    const plain = decodePng(previewPng(cube, { background: '#ffffff', width: 200, height: 200 }));
    const shaded = decodePng(
      previewPng(cube, { background: '#ffffff', width: 200, height: 200, shadow: true }),
    );
    let darker = 0;
    for (let k = 0; k < plain.pixels.length; k += 4) if (shaded.pixels[k]! < plain.pixels[k]! - 10) darker++;
    expect(darker).toBeGreaterThan(200);
  });
});
