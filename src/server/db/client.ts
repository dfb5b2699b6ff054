import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

/** The database both drivers give: a transaction is one too, so repositories take either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers when the database does (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary constant: serialises migrations when several instances start at once on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 727_001;

export async function openPostgres(url: string, options: { migrate?: boolean } = {}): Promise<Database> {
  if (options.migrate !== false) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

/** Opens PGlite on a directory (or in memory when `dataDir` is undefined, or from a dumped snapshot). */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; migrate?: boolean } = {},
): Promise<Database & { pglite: PGlite }> {
  const pglite = await PGlite.create(
    options.dataDir,
    options.loadDataDir ? { loadDataDir: options.loadDataDir } : {},
  );
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  if (options.migrate !== false) await migratePglite(drizzlePglite(pglite), { migrationsFolder });
  return {
    db,
    pglite,
    kind: 'pglite',
    ping: async () => {
      await pglite.query('select 1');
    },
    close: () => pglite.close(),
  };
}
