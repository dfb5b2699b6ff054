import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnalysisPool, createAnalysisPool } from './analysis-pool.ts';
import { boxStl } from './testing.ts';

// A thread is made ready when an upload begins on a pool with none alive (none yet, or all ended after a
// minute idle): the first upload of a visit no longer waits for a thread to start and compile (~0.2 s
// against ~0.06 s for a small model, `npm run bench upload`'s "first upload on a cold pool").

const pools: AnalysisPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

function newPool(): AnalysisPool {
  const pool = createAnalysisPool({ maxThreads: 1 });
  pools.push(pool);
  return pool;
}

describe('warming the analysis pool', () => {
  it('starts and readies one thread when none is alive, once for calls at the same time, and then none', async () => {
    const pool = newPool();
    expect(pool.threads!()).toBe(0);
    const first = pool.warm!();
    expect(pool.warm!()).toBe(first);
    await first;
    expect(pool.threads!()).toBe(1);
    // A thread is alive: nothing more is started.
    await pool.warm!();
    expect(pool.threads!()).toBe(1);

    // The ready thread analyses as ever.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-warm-'));
    try {
      const cube = path.join(dir, 'cube.stl');
      fs.writeFileSync(cube, boxStl(10, 20, 30));
      const result = await pool.analyze({ path: cube, extension: 'stl', color: '#007bff' });
      if (!result.ok) throw new Error(result.message);
      expect(result.analysis).toMatchObject({ triangles: 12, watertight: true });
      expect(result.png).not.toBeNull();
      expect(pool.threads!()).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
