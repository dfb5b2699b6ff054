import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AnalysisPool, type AnalysisPoolOptions, createAnalysisPool } from './analysis-pool.ts';
import { boxStl } from './testing.ts';

// A thread is made ready when an upload begins on a pool with none alive (none yet, or all ended after a
// minute idle): the first upload of a visit no longer waits for a thread to start and compile.

let dir: string;
const pools: AnalysisPool[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-warm-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const p of pools.splice(0)) await p.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function newPool(options: AnalysisPoolOptions = {}): AnalysisPool {
  const pool = createAnalysisPool({ maxThreads: 1, ...options });
  pools.push(pool);
  return pool;
}

/** How many warm-up tasks the pools have handed to piscina. */
function countWarmUps() {
  const run = Piscina.prototype.run;
  const spy = vi.spyOn(Piscina.prototype, 'run');
  let count = 0;
  spy.mockImplementation(function (this: Piscina, task, options) {
    if (options?.name === 'warm') count++;
    return run.call(this, task, options);
  });
  return () => count;
}

function cube(): string {
  const file = path.join(dir, 'cube.stl');
  fs.writeFileSync(file, boxStl(10, 20, 30));
  return file;
}

describe('warming the analysis pool', () => {
  it('starts and readies one thread when none is alive, once for calls at the same time, and none while one lives', async () => {
    const warmUps = countWarmUps();
    const pool = newPool();
    expect(pool.threads!()).toBe(0);
    const first = pool.warm!();
    expect(pool.warm!()).toBe(first);
    await first;
    expect(warmUps()).toBe(1);
    expect(pool.threads!()).toBe(1);
    await pool.warm!();
    expect(warmUps()).toBe(1);

    // The ready thread analyses as ever.
    const result = await pool.analyze({ path: cube(), extension: 'stl', color: '#007bff' });
    if (!result.ok) throw new Error(result.message);
    expect(result.analysis).toMatchObject({ triangles: 12, watertight: true });
    expect(result.png).not.toBeNull();
  });

  it('gives a model asked for during the warm-up the thread it readies, not a second one started cold', async () => {
    const pool = newPool({ maxThreads: 2 });
    const warming = pool.warm!();
    const result = await pool.analyze({ path: cube(), extension: 'stl', color: '#007bff' });
    await warming;
    expect(result.ok).toBe(true);
    expect(pool.threads!()).toBe(1);
  });

  it('gives up, after the time limit, on a thread that cannot start, and warms again afterwards', async () => {
    const broken = path.join(dir, 'broken-worker.mjs');
    fs.writeFileSync(broken, "throw new Error('this worker cannot start');\n");
    const pool = newPool({ workerFile: pathToFileURL(broken).href, timeoutMs: 300 });
    const first = pool.warm!();
    await expect(first).resolves.toBeUndefined();
    expect(pool.warm!()).not.toBe(first);
  });
});
