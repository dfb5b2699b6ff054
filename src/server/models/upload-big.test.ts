import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigBinaryStl, box, concatChunks, objText } from '../../mesh/testing/generate.ts';
import { MAX_UPLOAD_BYTES } from '../../shared/catalog.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import { uploadRequest } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a 64 MB model (docs/security.md 30)', () => {
  it('is analysed off the event loop: /healthz keeps answering meanwhile', { timeout: 60_000 }, async () => {
    const bytes = concatChunks(bigBinaryStl(MAX_UPLOAD_BYTES));
    expect(bytes.length).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    expect(bytes.length).toBeGreaterThan(MAX_UPLOAD_BYTES - 64 * 1024);
    let done = false;
    const upload = t.app.inject(uploadRequest({ fileName: 'big-sphere.stl', bytes })).finally(() => {
      done = true;
    });
    const latencies: number[] = [];
    while (!done) {
      const start = performance.now();
      const res = await t.app.inject('/healthz');
      latencies.push(performance.now() - start);
      expect(res.statusCode).toBe(200);
      await sleep(25);
    }
    const res = await upload;
    expect(res.statusCode).toBe(201);
    // A sphere of radius 40 mm, finely tessellated: close to 4/3 pi r^3 = 268.08 cm3 and 4 pi r^2 = 201.06 cm2.
    expect(res.json()).toMatchObject({ dimensions: { x: 80, y: 80, z: 80 }, watertight: true });
    expect(res.json().volumeCm3).toBeCloseTo(268.08, 1);
    expect(res.json().areaCm2).toBeCloseTo(201.06, 1);
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    const preview = await t.app.inject({
      url: res.json().previewImage,
      headers: { cookie: `visitor=${res.cookies.find((c) => c.name === 'visitor')!.value}` },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
  });

  it('accepts a file of exactly 64 MiB', { timeout: 60_000 }, async () => {
    const model = objText(box(20, 20, 20));
    const comment = '# padding\n';
    const bytes = new Uint8Array(MAX_UPLOAD_BYTES).fill(0x20);
    const encoded = new TextEncoder().encode(model + comment);
    bytes.set(encoded);
    bytes[bytes.length - 1] = 0x0a;
    const res = await t.app.inject(uploadRequest({ fileName: 'padded.obj', bytes }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ volumeCm3: 8, dimensions: { x: 20, y: 20, z: 20 } });
  });
});
