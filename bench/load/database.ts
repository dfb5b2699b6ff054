// The load bench's database: PGlite in the shop's DATA_DIR (the embedded default), or with DATABASE_URL set a
// database of its own on that PostgreSQL server, made for the run and dropped after it.
import pg from 'pg';
import { withDatabase } from '../../src/server/testing/database-url.ts';

export type BenchDatabase = { env: Record<string, string>; label: string; drop(): Promise<void> };

async function admin(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function benchDatabase(url: string | undefined): Promise<BenchDatabase> {
  if (!url) {
    return { env: {}, label: 'PGlite (the embedded default) in a temporary DATA_DIR', drop: async () => {} };
  }
  const name = `shop_bench_load_${process.pid}`;
  await admin(url, `create database ${name}`);
  return {
    // The simulator runs on PostgreSQL only when asked for: there are no Stripe keys here.
    env: { DATABASE_URL: withDatabase(url, name), PAYMENT_PROVIDER: 'simulator' },
    label: `PostgreSQL on ${new URL(url).host} (database ${name}, dropped after the run)`,
    drop: () => admin(url, `drop database if exists ${name} with (force)`),
  };
}
