import path from 'node:path';
import type { Config } from '../config.ts';
import { type Database, openPglite, openPostgres } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';

/** The database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR/db. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const lock = lockDataDir(config.dataDir);
  try {
    const database = await openPglite({ dataDir: path.join(config.dataDir, 'db') });
    return {
      ...database,
      close: async () => {
        await database.close();
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
