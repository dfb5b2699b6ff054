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
  // A server that never answers the connection (a failover, a lost network) fails the request in 10 s (a
  // 503) instead of holding it for the 10-minute request timeout. The wait for a free pool client counts too.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one's (a transaction's): pg emits 'error' on it with no listener; its query
  // fails anyway, and the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
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

/** SQLSTATEs of a server going away or not taking connections: 08 (connection), 57P01-03 (shutdown), 53300. */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `err` (or an error it wraps: drizzle's DrizzleQueryError keeps pg's as `cause`) says the database
 * cannot be reached right now, rather than that a query was wrong: the answer is then 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return unavailableCause(err) !== null;
}

/** The error in `err`'s cause chain that says so (pg's or the socket's own: never a wrapper's query text). */
export function unavailableCause(err: unknown): Error | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code))) return e;
    if (UNAVAILABLE_MESSAGES.test(e.message)) return e;
  }
  return null;
}

/**
 * PGlite runs each query on this thread, and its promises settle in microtasks: the queries of requests that
 * arrive together ran back to back in one turn of the event loop, with no socket read or timer between (ten
 * uploads starting at once: one block of 40-75 ms). Each query and transaction now starts in a turn of its own,
 * one after the other, so whatever else waits runs between them; an idle shop pays one turn, microseconds.
 */
function queriesTakeTurns(pglite: PGlite): void {
  let last: Promise<void> = Promise.resolve();
  const nextTurn = (): Promise<void> => {
    const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    last = turn;
    return turn;
  };
  const inTurn = <F extends (...args: never[]) => Promise<unknown>>(run: F): F =>
    (async (...args: Parameters<F>) => {
      await nextTurn();
      return run(...args);
    }) as F;
  pglite.query = inTurn(pglite.query.bind(pglite));
  pglite.transaction = inTurn(pglite.transaction.bind(pglite));
}

/** Opens PGlite on a directory (or in memory when `dataDir` is undefined, or from a dumped snapshot). */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; migrate?: boolean } = {},
): Promise<Database & { pglite: PGlite }> {
  const pglite = await PGlite.create(
    options.dataDir,
    options.loadDataDir ? { loadDataDir: options.loadDataDir } : {},
  );
  queriesTakeTurns(pglite);
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
