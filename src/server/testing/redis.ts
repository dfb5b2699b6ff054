import net from 'node:net';

// A Redis for the tests that need one: TEST_REDIS_URL or 127.0.0.1:6379. Without one they are
// skipped, unless REDIS_REQUIRED=1 (CI), where a missing Redis fails the run.

declare module 'vitest' {
  interface TaskMeta {
    /** Why a suite is skipped here, named in `npm test`'s summary (scripts/test-summary.mjs). */
    skipReason?: string;
  }
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export const haveRedis = await reachable(TEST_REDIS_URL);
if (!haveRedis && process.env.REDIS_REQUIRED === '1') {
  throw new Error(`REDIS_REQUIRED=1 but no Redis answers at ${TEST_REDIS_URL}`);
}

/** A suite's options that skip it without Redis, saying so in `npm test`'s summary. */
export const needsRedis = {
  skip: !haveRedis,
  meta: { skipReason: `Redis not reachable at ${TEST_REDIS_URL}` },
};
