// The shop as the benchmarks run it: embedded PGlite, a temporary data directory, rate limits out of the way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';

export async function startBenchShop(name: string, options: { clientDir?: string; publicUrl?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-bench-${name}-`));
  const database = await openPglite();
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    RATE_LIMIT_SCALE: '1000',
    CLIENT_DIR: options.clientDir ?? path.join(dir, 'none'),
    ...(options.publicUrl ? { PUBLIC_URL: options.publicUrl } : {}),
  });
  const app = await buildApp({ config, database });
  return {
    dir,
    database,
    app,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
