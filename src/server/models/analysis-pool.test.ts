import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisLimitError, type AnalysisPool, createAnalysisPool } from './analysis-pool.ts';
import { boxStl } from './testing.ts';

let dir: string;
let pool: AnalysisPool;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pool-'));
  pool = createAnalysisPool({ maxThreads: 1 });
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
}

describe('analysis pool', () => {
  it('analyses a file in a worker thread and renders a 512 x 512 PNG preview', async () => {
    const result = await pool.analyze({
      path: file('cube.stl', boxStl(10, 20, 30)),
      extension: 'stl',
      color: '#007bff',
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.analysis).toMatchObject({ format: 'stl-binary', triangles: 12, watertight: true });
    expect(result.analysis.volumeCm3).toBeCloseTo(6, 9);
    const png = Buffer.from(result.png!);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('answers a MeshError as a result, with its code and message', async () => {
    const result = await pool.analyze({
      path: file('faces.obj', 'v 0 0 0\nf 1 1 1\n'),
      extension: 'obj',
      color: '#007bff',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(typeof result.code).toBe('string');
  });

  it('stops a model past its time limit and keeps working afterwards', async () => {
    const slow = createAnalysisPool({ maxThreads: 1, timeoutMs: 1 });
    try {
      const err = await slow
        .analyze({ path: file('slow.stl', boxStl(1, 1, 1)), extension: 'stl', color: '#007bff' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AnalysisLimitError);
      expect((err as AnalysisLimitError).reason).toBe('timeout');
    } finally {
      await slow.close();
    }
    const ok = await pool.analyze({
      path: file('after.stl', boxStl(1, 1, 1)),
      extension: 'stl',
      color: '#007bff',
    });
    expect(ok.ok).toBe(true);
  });

  it('gives a preview or view job twice the time limit: it reads the model again, then makes its extra', async () => {
    const worker = new URL('./testing-slow-worker.mjs', import.meta.url).href;
    const slow = createAnalysisPool({ maxThreads: 1, timeoutMs: 1_000, workerFile: worker });
    try {
      const task = { path: 'unused', extension: 'stl' as const, color: '#007bff', sleepMs: 1_500 };
      const err = await slow.analyze(task).catch((e: unknown) => e);
      expect((err as AnalysisLimitError).reason).toBe('timeout');
      const made = await slow.extras({ ...task, extra: 'view' });
      expect(made.viewError).toBe('slept');
      const longer = { ...task, sleepMs: 2_500 };
      const late = await slow.extras({ ...longer, extra: 'view' }).catch((e: unknown) => e);
      expect((late as AnalysisLimitError).reason).toBe('timeout');
    } finally {
      await slow.close();
    }
  });

  it('answers busy at once when the waiting room is full, and works on afterwards', async () => {
    const small = createAnalysisPool({ maxThreads: 1, maxWaiting: 1 });
    try {
      const task = { path: file('q.stl', boxStl(5, 5, 5)), extension: 'stl' as const, color: '#007bff' };
      const running = small.analyze(task, 'a');
      const waiting = small.analyze(task, 'b');
      const started = Date.now();
      const refused = await small.analyze(task, 'c').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AnalysisLimitError);
      expect((refused as AnalysisLimitError).reason).toBe('busy');
      // Refused without waiting for a thread (generous bound: a thread start alone takes longer).
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await running).ok).toBe(true);
      expect((await waiting).ok).toBe(true);
      expect((await small.analyze(task, 'c')).ok).toBe(true);
    } finally {
      await small.close();
    }
  });
});
