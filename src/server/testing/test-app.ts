import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from './test-db.ts';

export const TEST_ORIGIN = 'http://shop.test';

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  dataDir: string;
  /** Moves the app's clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
};

/** The whole app on its own database and data directory, with a clock tests can move. */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream; rateLimitNamespace?: string } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    ...env,
  });
  const database = await openTestDatabase();
  let offset = 0;
  const app = await buildApp({
    config,
    database,
    now: () => new Date(Date.now() + offset),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    advance: (ms) => {
      offset += ms;
    },
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
