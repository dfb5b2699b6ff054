import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { TEST_ORIGIN, type TestApp } from '../testing/test-app.ts';
import { createScratchDatabase as createScratchDatabaseAs } from '../testing/test-db.ts';

// Helpers for the fault tests: a database of their own cloned from the run's template (so an app can reach
// it through a proxy), and the app built on a database the test opened.

export type { ScratchDatabase } from '../testing/test-db.ts';

/** A new database cloned from the run's migrated template (PostgreSQL runs only). */
export const createScratchDatabase = (templateUrl: string) => createScratchDatabaseAs(templateUrl, 'shop_f_');

/** The URL with its host and port replaced (the app's way to the database through a proxy). */
export function viaPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

/** The whole app on `database` (which the caller opened and closes), with its own data directory. */
export async function buildAppOn(
  database: Database,
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-fault-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    PAYMENT_PROVIDER: 'simulator',
    ...env,
  });
  const app = await buildApp({ config, database, ...options });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    advance: () => {
      throw new Error('buildAppOn: the clock is real');
    },
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
