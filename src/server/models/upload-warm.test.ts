import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bigBinaryStl, concatChunks } from '../../mesh/testing/generate.ts';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import { multipartBody } from './testing.ts';

// The upload route readies a thread when an upload begins (analysis-pool.ts warm()), while its bytes are
// still arriving. The app's pool is the real one, watched.
const watched = vi.hoisted(() => ({ pools: [] as AnalysisPool[] }));
vi.mock('./analysis-pool.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./analysis-pool.ts')>();
  return {
    ...real,
    createAnalysisPool: (...args: Parameters<typeof real.createAnalysisPool>) => {
      const pool = real.createAnalysisPool(...args);
      watched.pools.push(pool);
      return pool;
    },
  };
});

let t: TestApp;
let url: URL;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
  url = new URL(`${await t.app.listen({ host: '127.0.0.1', port: 0 })}/api/uploads`);
});
afterAll(() => t.close());

describe('an upload on a pool with no thread alive', () => {
  it('starts and readies a thread while its bytes arrive, and is analysed on it', async () => {
    const pool = watched.pools.at(-1)!;
    expect(pool.threads!()).toBe(0);
    // Under the size that is analysed as it streams in: analysed once received.
    const { payload, contentType } = multipartBody([
      { fileName: 'part.stl', bytes: concatChunks(bigBinaryStl(256 * 1024)) },
    ]);
    const half = payload.length >> 1;
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': payload.length, origin: url.origin },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.write(payload.subarray(0, half));
      // The rest only once a thread is alive and ready: it was started by the upload's beginning.
      void (async () => {
        await expect.poll(() => pool.threads!(), { timeout: 20_000 }).toBe(1);
        await pool.warm!();
        req.end(payload.subarray(half));
      })().catch((err) => {
        // Not left half-sent: the app's close would wait for it.
        req.destroy();
        reject(err);
      });
    });
    const { status, body } = await answered;
    expect(status).toBe(201);
    expect(JSON.parse(body)).toMatchObject({ triangles: expect.any(Number), watertight: true });
    expect(pool.threads!()).toBe(1);
  }, 60_000);
});
