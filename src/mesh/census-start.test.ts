// A thread that may not start worker threads (a permission model, a resource limit): the census helper is
// retired at its start, and every census is made in the analysing thread.

import { describe, expect, it, vi } from 'vitest';

vi.mock('node:worker_threads', async (original) => ({
  ...(await original<typeof import('node:worker_threads')>()),
  Worker: vi.fn(() => {
    throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
  }),
}));

const { censusElsewhere, censusHelperReady, sharedInt32, sharedUint8, startCensusHelper, HELPER_FACES } =
  await import('./census-thread.ts');
const { analyse3mf, read3mf } = await import('./threemf/read.ts');
const { bigSphere3mf } = await import('./testing/threemf.ts');

describe('a census helper that cannot start', () => {
  it('is retired, and a big 3MF model is analysed whole without it', async () => {
    expect(() => startCensusHelper()).not.toThrow();
    expect(censusHelperReady()).toBe(false);
    const faces = sharedInt32(3 * HELPER_FACES);
    expect(censusElsewhere(faces, HELPER_FACES, 3, sharedUint8(3))).toBeNull();
    const { analysis } = analyse3mf(await read3mf(bigSphere3mf(300, 200, 'prusa')));
    expect(analysis.triangles).toBeGreaterThanOrEqual(HELPER_FACES);
    expect(analysis).toMatchObject({ watertight: true, openEdges: 0, shells: 1 });
  }, 60_000);
});
